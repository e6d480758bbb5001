# real-report.cmake - the tool reads what the runtime really writes.
#
#   cmake -DBIN=build/bin -DSRC=real-prog.c -DWORK=dir -P real-report.cmake
#
# Builds SRC with zeroinst-cc, runs it with ZEROINST_OUTPUT=WORK/report,
# then `zeroinst show WORK/report --paths` must succeed, print nothing on
# stderr, and show the program's integer site (unsigned values < 256 loaded
# in sum(): redmap 000x).  The fixtures test the exact output; this test
# guards the contract between the runtime's report.json and the tool.
cmake_minimum_required(VERSION 3.18)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
run("compiling" ${BIN}/zeroinst-cc -O1 ${SRC} -o ${WORK}/tool-real-prog)
run("running the program" ${CMAKE_COMMAND} -E env ZEROINST_OUTPUT=${WORK}/report
    ${WORK}/tool-real-prog)
run("zeroinst show" ${BIN}/zeroinst show ${WORK}/report --paths)
if(NOT err STREQUAL "")
  message(FATAL_ERROR "zeroinst show wrote to stderr:\n${err}")
endif()
foreach(re "^zeroinst report: [^\n]*/tool-real-prog \\(pid [0-9]+, [a-z0-9_]+\\), modes code, 1 thread\n"
           "\n== Integer loads ==\nredundant bytes: [0-9]+ of [0-9]+ loaded \\([0-9.]+%\\)"
           "redmap 000x +i32 +loads 100\n +[^\n]*real-prog.c:[0-9]+(:[0-9]+)? in sum"
           "call path \\(innermost first\\):\n +sum \\([^\n]*real-prog.c:[0-9]+\\)\n"
           "\n== Floating-point loads ==\n")
  if(NOT out MATCHES "${re}")
    message(FATAL_ERROR "zeroinst show output does not match /${re}/:\n${out}")
  endif()
endforeach()
