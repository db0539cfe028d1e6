/* fm-event-fields.h: the one description of an event's fields.
 *
 * FM_EVENT_FIELDS below is the only place a field is spelled out. Every form of the
 * event is made from it: the FmEvent struct (fm-event.h), the stream record and its
 * readers (fm-stream.c, the viewer's store reads records through it), the GVariant of the
 * Events signal (fm-codec.c), the jsonl and csv writers (fm-format.c) and the jsonl
 * reader (fm-jsonl-reader.c), the filter language's fields (fm-filter*.c), the field list
 * of `filemonctl watch --help`, of the man page and of the shell completion (the last two
 * generated at build time, client-cli/filemonctl-fields-gen.c). Adding a field is one
 * line here, plus its tests and the documents of the contract it changes (the Events
 * signal in dbus/org.filemond.Filemond1.xml, doc/stream-format.md); nothing is numbered
 * by hand, and tests/unit/test-event-fields.c fails when a form or a document misses one.
 *
 * The table is an X-macro expanded at compile time rather than an array walked at run
 * time: the record encoder and decoder run for every event the daemon buffers and every
 * event a client reads (tens of millions a second), and expanded per field they compile
 * to the same straight-line code as the hand-written versions did. fm_event_fields[]
 * (fm-event-fields.c) is the same table as data, for what is not on a hot path (help
 * texts, field names, the jsonl reader's keys).
 *
 * One line per field, in the order of the Events signal's tuple and of the jsonl and
 * csv columns:
 *
 *   X (ID, member, TYPE, limit, key, filter name, FILTER KIND, completion, help, example)
 *
 *   ID           FM_FIELD_<ID> in FmFieldId
 *   member       the FmEvent member (strings also get member_len)
 *   TYPE         how it is held and carried; the GVariant type follows from it:
 *                U64 (t), U32 (u), I64 (x), SYSCALL (u16 number; s: its name),
 *                BYTES (bytes, NUL-free; ay with its NUL), UTF8 (valid UTF-8; s),
 *                ERRNO (derived from result: written and filtered, never stored),
 *                USER (derived from uid: a filter field only)
 *   limit        strings: the longest value in bytes (longer ones are clamped); the
 *                syscall: the longest name a reader takes
 *   key          the jsonl key and csv column
 *   filter name  the field's name in the filter language
 *   FILTER KIND  how the filter reads a value for it (fm-filter-compare.c)
 *   completion   what the shell completion offers for it (name and an operator)
 *   help         one line for `watch --help`, the man page and the viewer's filter help
 *   example      a comparison on the field that parses, offered by the viewer's filter help
 */
#pragma once

#include <glib.h>

#include "fm-syscall-nr.h"

G_BEGIN_DECLS

/* Longest path or path2 the backends deliver (PATH_MAX); longer names are truncated by
 * the kernel side already. */
#define FM_PATH_MAX 4096
#define FM_COMM_MAX 16   /* TASK_COMM_LEN, including the NUL */
#define FM_DETAIL_MAX 1024

#define FM_EVENT_FIELDS(X) \
  X (SEQ, seq, U64, 0, "seq", "seq", NUMBER, "seq>", \
     "sequence number in the daemon's buffer (missed events show as gaps)", "seq>=100") \
  X (TIME, time_ns, U64, 0, "time_ns", "time", TIME, "time>", \
     "when the call returned: ns since the epoch, or HH:MM[:SS[.frac]] (local time)", "time>=12:00:05") \
  X (DURATION, duration_ns, U64, 0, "duration_ns", "duration", DURATION, "duration>", \
     "how long the call took (0: unknown): ns, or a number with ns, us, ms or s", "duration>1ms") \
  X (PID, pid, U32, 0, "pid", "pid", NUMBER, "pid=", \
     "process id", "pid=1234") \
  X (PPID, ppid, U32, 0, "ppid", "ppid", NUMBER, "ppid=", \
     "parent process id", "ppid=1") \
  X (TID, tid, U32, 0, "tid", "tid", NUMBER, "tid=", \
     "thread id", "tid=1234") \
  X (UID, uid, U32, 0, "uid", "uid", NUMBER, "uid=", \
     "user id of the process", "uid=1000") \
  X (USER, derived_user, USER, 0, NULL, "user", USER, "user=", \
     "user name of uid, or a glob of names", "user=root") \
  X (COMM, comm, BYTES, FM_COMM_MAX - 1, "comm", "comm", TEXT, "comm=", \
     "process name (its first 15 bytes)", "comm=sshd") \
  X (SYSCALL, syscall_nr, SYSCALL, FM_SYSCALL_NAME_MAX - 1, "syscall", "syscall", SYSCALL, "syscall=", \
     "name of the call, e.g. openat", "syscall=open*") \
  X (RESULT, result, I64, 0, "result", "result", RESULT, "result<", \
     "what the call returned: >= 0, or -errno (result=-ENOENT works too)", "result<0") \
  X (ERRNO, derived_errno, ERRNO, 0, "errno", "errno", ERRNO, "errno=", \
     "name or number of the error of a failed call, e.g. EACCES", "errno=EACCES") \
  X (PATH, path, BYTES, FM_PATH_MAX, "path", "path", TEXT, "path~", \
     "file the call named, absolute where the kernel can tell", "path~'^/etc/'") \
  X (PATH2, path2, BYTES, FM_PATH_MAX, "path2", "path2", TEXT, "path2~", \
     "second file: rename/link target, symlink contents, interpreter an exec ran or failed to find", \
     "path2=*.new") \
  X (DETAIL, detail, UTF8, FM_DETAIL_MAX, "detail", "detail", TEXT, "detail~", \
     "flags and modes decoded, e.g. O_WRONLY|O_CREAT, 0644", "detail~O_CREAT")

/* ---- per-TYPE pieces the expansions share ----------------------------------------- */

/* Its argument for a stored field, nothing for a derived one. */
#define FM_FIELD_IF_STORED_U64(...) __VA_ARGS__
#define FM_FIELD_IF_STORED_U32(...) __VA_ARGS__
#define FM_FIELD_IF_STORED_I64(...) __VA_ARGS__
#define FM_FIELD_IF_STORED_SYSCALL(...) __VA_ARGS__
#define FM_FIELD_IF_STORED_BYTES(...) __VA_ARGS__
#define FM_FIELD_IF_STORED_UTF8(...) __VA_ARGS__
#define FM_FIELD_IF_STORED_ERRNO(...)
#define FM_FIELD_IF_STORED_USER(...)

/* The FmEvent members of a field. */
#define FM_FIELD_MEMBER_U64(m) guint64 m;
#define FM_FIELD_MEMBER_U32(m) guint32 m;
#define FM_FIELD_MEMBER_I64(m) gint64 m;
#define FM_FIELD_MEMBER_SYSCALL(m) guint16 m;
#define FM_FIELD_MEMBER_BYTES(m) const char *m; guint16 m##_len;
#define FM_FIELD_MEMBER_UTF8(m) const char *m; guint16 m##_len;
#define FM_FIELD_MEMBER_ERRNO(m)
#define FM_FIELD_MEMBER_USER(m)
#define FM_FIELD_MEMBER(id, m, type, ...) FM_FIELD_MEMBER_##type (m)

/* The GVariant type of a field, as a string literal (nothing for derived fields). */
#define FM_FIELD_GVARIANT_U64 "t"
#define FM_FIELD_GVARIANT_U32 "u"
#define FM_FIELD_GVARIANT_I64 "x"
#define FM_FIELD_GVARIANT_SYSCALL "s"
#define FM_FIELD_GVARIANT_BYTES "ay"
#define FM_FIELD_GVARIANT_UTF8 "s"
#define FM_FIELD_GVARIANT_ERRNO
#define FM_FIELD_GVARIANT_USER
#define FM_FIELD_GVARIANT(id, m, type, ...) FM_FIELD_GVARIANT_##type

/* The bytes a string field takes in a stream record, at most (with its NUL), as a term
 * of a sum; 0 for the other fields. */
#define FM_FIELD_MAX_BYTES_BYTES(limit) + (limit) + 1
#define FM_FIELD_MAX_BYTES_UTF8(limit) + (limit) + 1
#define FM_FIELD_MAX_BYTES_U64(limit)
#define FM_FIELD_MAX_BYTES_U32(limit)
#define FM_FIELD_MAX_BYTES_I64(limit)
#define FM_FIELD_MAX_BYTES_SYSCALL(limit)
#define FM_FIELD_MAX_BYTES_ERRNO(limit)
#define FM_FIELD_MAX_BYTES_USER(limit)
#define FM_FIELD_MAX_BYTES(id, m, type, limit, ...) FM_FIELD_MAX_BYTES_##type (limit)

#define FM_FIELD_ID(id, ...) FM_FIELD_##id,

typedef enum {
  FM_EVENT_FIELDS (FM_FIELD_ID)
  FM_N_FIELDS
} FmFieldId;

typedef enum {
  FM_FIELD_TYPE_U64,
  FM_FIELD_TYPE_U32,
  FM_FIELD_TYPE_I64,
  FM_FIELD_TYPE_SYSCALL,
  FM_FIELD_TYPE_BYTES,
  FM_FIELD_TYPE_UTF8,
  FM_FIELD_TYPE_ERRNO,
  FM_FIELD_TYPE_USER,
} FmFieldType;

/* How the filter language reads a value for a field (fm-filter-compare.c). */
typedef enum {
  FM_FILTER_KIND_NUMBER,    /* an integer */
  FM_FILTER_KIND_RESULT,    /* an integer, or -ENAME */
  FM_FILTER_KIND_TIME,      /* ns since the epoch, or a local time of day */
  FM_FILTER_KIND_DURATION,  /* ns, or a number with a unit */
  FM_FILTER_KIND_TEXT,      /* bytes: exact, glob or regex */
  FM_FILTER_KIND_SYSCALL,   /* a syscall name (or glob, or regex) */
  FM_FILTER_KIND_ERRNO,     /* an errno name or number */
  FM_FILTER_KIND_USER,      /* a user name, glob or uid */
} FmFilterKind;

typedef struct {
  FmFieldId id;
  FmFieldType type;
  /* in the fixed part of the stream's event record (fm-stream.h): where the value, or a
   * string's length, is and the bytes it takes; 0 for a derived field */
  guint stream_offset;
  guint stream_size;
  gsize limit;
  const char *key;          /* NULL: not written (user) */
  const char *filter_name;
  FmFilterKind filter_kind;
  const char *completion;
  const char *help;
  const char *example;
} FmFieldInfo;

/* The table as data, indexed by FmFieldId. */
extern const FmFieldInfo fm_event_fields[FM_N_FIELDS];

/* Whether the field is held in an FmEvent (and carried by the stream and GVariant). */
gboolean fm_field_is_stored (const FmFieldInfo *field);

/* The filter field names, joined by @separator, with @last_separator before the last one
 * (", " and " or " make "a, b or c"). */
char *fm_field_filter_names (const char *separator,
                             const char *last_separator);

G_END_DECLS
