# run-tool.cmake - run the `zeroinst` tool once and check what it did.
#
#   cmake -DTOOL=path/zeroinst -DEXPECT_RC=N -DACTUAL=file
#         [-DEXPECT_STDOUT=golden-file | -DSTDOUT_REGEX=re]
#         [-DEXPECT_STDERR=text | -DSTDERR_REGEX=re]
#         -P run-tool.cmake -- ARGS...
#
# Runs TOOL ARGS... in the current directory and checks:
#   exit status  equal to EXPECT_RC;
#   stdout       byte for byte equal to EXPECT_STDOUT (the actual output is
#                written to ACTUAL and a diff printed when it differs), or
#                matching STDOUT_REGEX, or else empty;
#   stderr       exactly one line: EXPECT_STDERR, or one matching
#                STDERR_REGEX; or else empty.
cmake_minimum_required(VERSION 3.18)

# The tool's arguments: everything after "--".
set(args)
set(after_dashes FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after_dashes)
    list(APPEND args "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(after_dashes TRUE)
  endif()
endforeach()

execute_process(COMMAND ${TOOL} ${args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(failures "")

if(NOT rc STREQUAL EXPECT_RC)
  string(APPEND failures "exit status ${rc}, expected ${EXPECT_RC}\n")
endif()

if(DEFINED EXPECT_STDOUT)
  file(READ ${EXPECT_STDOUT} golden)
  if(NOT out STREQUAL golden)
    file(WRITE ${ACTUAL} "${out}")
    find_program(DIFF diff)
    set(delta "")
    if(DIFF)
      execute_process(COMMAND ${DIFF} -u ${EXPECT_STDOUT} ${ACTUAL} OUTPUT_VARIABLE delta)
    endif()
    string(APPEND failures "stdout differs from ${EXPECT_STDOUT} (actual: ${ACTUAL})\n${delta}")
  endif()
elseif(DEFINED STDOUT_REGEX)
  if(NOT out MATCHES "${STDOUT_REGEX}")
    string(APPEND failures "stdout does not match /${STDOUT_REGEX}/:\n${out}")
  endif()
elseif(NOT out STREQUAL "")
  string(APPEND failures "unexpected stdout:\n${out}")
endif()

if(DEFINED EXPECT_STDERR OR DEFINED STDERR_REGEX)
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines nlines)
  if(NOT nlines EQUAL 1 OR NOT err MATCHES "\n$")
    string(APPEND failures "stderr is not exactly one line:\n${err}")
  elseif(DEFINED EXPECT_STDERR AND NOT err STREQUAL "${EXPECT_STDERR}\n")
    string(APPEND failures "stderr:\n  ${err}expected:\n  ${EXPECT_STDERR}\n")
  elseif(DEFINED STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
    string(APPEND failures "stderr does not match /${STDERR_REGEX}/:\n  ${err}")
  endif()
elseif(NOT err STREQUAL "")
  string(APPEND failures "unexpected stderr:\n${err}")
endif()

if(failures)
  string(REPLACE ";" " " shown "${args}")
  message("${failures}")   # unformatted, so diffs stay readable
  message(FATAL_ERROR "zeroinst ${shown}: failed")
endif()
