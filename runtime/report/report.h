/* report.h - the report (runtime/report/): finish.c merges every
   thread's counters into records at process end (or exec, or a fatal
   signal), data_records.c makes data mode's records of groups,
   report_json.c and report_text.c write them, and output.c names and
   creates the report directory.  */
#ifndef ZEROINST_REPORT_H
#define ZEROINST_REPORT_H

#include "contexts/contexts.h"
#include "counters/counters.h"
#include "data/data.h"

/* finish.c: the merged view the writers read.  */
struct zi_record {
  const struct zi_site_info *site;
  int32_t path;                      /* full call path: index into the report's paths */
  /* The thread whose loads these are: an index into the report's thread
     rows, or ZI_ENDED_THREADS for threads that ended before the report
     (their counters are merged); when several contributed, their shares
     are the report's parts from ZI_FIRST_PART (thread) to the one marked
     last.  (It fills what was padding: records stay 56 bytes.)  */
  int32_t thread;
  struct zi_counters c;
};
#define ZI_ENDED_THREADS (-1)
#define ZI_SEVERAL_THREADS(first) (-2 - (int32_t) (first))
#define ZI_FIRST_PART(thread) ((size_t) (-2 - (thread)))
/* One thread's share of a record loaded by several.  */
struct zi_thread_part {
  int32_t thread;                    /* as zi_record.thread: a row or ZI_ENDED_THREADS */
  int32_t last;                      /* the record's last share */
  struct zi_counters c;
};
struct zi_data_record {
  int kind;                          /* ZI_KIND_INT or ZI_KIND_FLOAT */
  enum zi_storage storage;                 /* static or heap */
  const struct zi_group *group;
  const char *name, *module;         /* static */
  const char *allocator;             /* heap */
  const char *variable;              /* heap: the group's, or NULL */
  int descriptor;                    /* static: a Fortran array descriptor */
  int thread_local;                  /* static: a thread-local variable */
  int32_t path;                      /* heap: allocation path (the report's paths) */
  uint64_t allocations, size, never_loaded, always_zero;
  struct zi_totals c;
  struct zi_map map;                 /* OR of the objects' maps */
  size_t length;                     /* bytes the map covers (largest object) */
  /* Instead of a map of its own, where the record has one source (no
     copy as large as a large array's map): its group's map of the
     objects that are gone (BORROWED), or the one live object whose map
     the writer reads from the shadow at the granule of a byte (SINGLE,
     OBJECT).  */
  const struct zi_map *borrowed;
  int single;
  struct zi_object object;
};
struct zi_report {
  const char *program;
  pid_t pid;
  const char *arch;
  struct zi_totals totals[ZI_NKINDS];
  struct zi_record *records;         /* sorted by redundant bytes, largest first */
  size_t nrecords;
  struct zi_thread_row {
    unsigned id;
    unsigned merged;                 /* > 0: the summed row of that many ended threads */
    struct zi_totals totals[ZI_NKINDS];
  } *threads;
  size_t nthreads;
  struct zi_data_record *data;       /* data mode: sorted by redundant bytes */
  size_t ndata;
  struct zi_totals data_totals[ZI_NSTORAGE][ZI_DATA_KINDS];
  struct zi_paths paths;             /* every record's path */
  struct zi_thread_part *parts;      /* of records loaded by several threads */
  size_t nparts;
};
void zi_data_records (struct zi_report *r) ZI_HIDDEN;         /* data_records.c */
void zi_data_records_free (struct zi_report *r) ZI_HIDDEN;
const char *zi_program_path (void) ZI_HIDDEN;   /* finish.c: /proc/self/exe, "" if unknown */

/* report_json.c, report_text.c: write the report to F; 0, or -1 on an
   error of F.  */
int zi_write_json (const struct zi_report *r, FILE *f) ZI_HIDDEN;
int zi_write_summary (const struct zi_report *r, FILE *f) ZI_HIDDEN;

/* output.c: the report directory (naming, creation, complete files);
   zi_remember_start, at start-up, notes the directory a relative
   ZEROINST_OUTPUT is relative to.  */
void zi_remember_start (void) ZI_HIDDEN;
const char *zi_output_rank (void) ZI_HIDDEN;
int zi_output_expand (const char *pattern, pid_t pid, char *out, size_t size, const char **err)
    ZI_HIDDEN;
int zi_output_open (void) ZI_HIDDEN;                 /* 0, or -1 (said on stderr) */
const char *zi_output_dir (void) ZI_HIDDEN;
int zi_output_write (const char *name, int (*write) (const struct zi_report *, FILE *),
                     const struct zi_report *r) ZI_HIDDEN;
void zi_output_discard_if_empty (void) ZI_HIDDEN;

#endif
