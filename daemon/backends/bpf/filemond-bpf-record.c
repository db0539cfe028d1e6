/* filemond-bpf-record.c: a record from the BPF ring buffer -> FmEvent; see
 * filemond-bpf-record.h. The record layout is in bpf/filemond-bpf.h. */
#include "config.h"

#include "filemond-bpf-record.h"

#include <string.h>
#include <sys/syscall.h>
#include <linux/magic.h>

#include "fm-error.h"
#include "fm-path.h"
#include "fm-syscalls.h"
#include "filemond-bpf.h"

#ifndef PID_FS_MAGIC
#define PID_FS_MAGIC 0x50494446   /* pidfds since 6.9 */
#endif

#define KERNEL_ERESTARTSYS 512
#define KERNEL_ERESTART_RESTARTBLOCK 516
#define RESTART_NOTE "interrupted by a signal (restarted, or EINTR for the process)"

#define DELETED " (deleted)"
#define DELETED_LEN (sizeof DELETED - 1)

struct _FmdBpfDecoder {
  GString *path;
  GString *path2;
  GString *detail;
  GString *argv;
  GString *notes;
  char comm[FM_COMM_MAX];
  char words[64];            /* a struct's first words as text, for the decoder */
  /* The last detail formatted from registers alone, and its call: a process in a loop
   * repeats its flags and modes, and formatting them again is a visible share of
   * filemond's time. */
  const FmSyscall *memo_sc;
  guint64 memo_args[FM_SYSCALL_MAX_ARGS];
  GString *memo_detail;
  /* what the paths need to know of the last record's syscall (three scans of its
   * arguments otherwise, every record) */
  const FmSyscall *paths_sc;
  int at_flags_index;
  gboolean path2_verbatim;
};

FmdBpfDecoder *
fmd_bpf_decoder_new (void)
{
  FmdBpfDecoder *self = g_new0 (FmdBpfDecoder, 1);

  self->path = g_string_sized_new (256);
  self->path2 = g_string_sized_new (256);
  self->detail = g_string_sized_new (256);
  self->argv = g_string_sized_new (256);
  self->notes = g_string_sized_new (64);
  self->memo_detail = g_string_sized_new (256);
  return self;
}

void
fmd_bpf_decoder_free (FmdBpfDecoder *self)
{
  if (self == NULL)
    return;
  g_string_free (self->path, TRUE);
  g_string_free (self->path2, TRUE);
  g_string_free (self->detail, TRUE);
  g_string_free (self->argv, TRUE);
  g_string_free (self->notes, TRUE);
  g_string_free (self->memo_detail, TRUE);
  g_free (self);
}

guint32
fmd_bpf_record_generation (const void *data,
                           gsize       len)
{
  const struct fmd_bpf_record *rec = data;

  return len >= sizeof *rec ? rec->generation : 0;
}

/* Whether @path has no empty and no "." component: most paths, which then need no copy. */
static gboolean
is_tidy (const char *path,
         gsize       len)
{
  const char *end = path + len;

  for (const char *p = memchr (path, '/', len); p != NULL && p + 1 < end;
       p = memchr (p + 1, '/', end - p - 1))
    if (p[1] == '/' || (p[1] == '.' && (p + 2 == end || p[2] == '/')))
      return FALSE;
  return TRUE;
}

gsize
fmd_bpf_path_tidy (char  *path,
                   gsize  len)
{
  gsize in = 1, out = 1;
  /* "dir/" must be a directory: the slash changes what the call means (ENOTDIR) */
  gboolean trailing = len > 1 && path[0] == '/' && path[len - 1] == '/';

  if (len == 0 || path[0] != '/')
    return len;
  if (is_tidy (path, len))
    {
      path[len] = '\0';
      return len;
    }

  while (in < len)
    {
      gsize start, n;

      while (in < len && path[in] == '/')
        in++;
      start = in;
      while (in < len && path[in] != '/')
        in++;
      n = in - start;
      if (n == 0 || (n == 1 && path[start] == '.'))
        continue;
      if (out > 1)
        path[out++] = '/';
      memmove (path + out, path + start, n);
      out += n;
    }
  if (trailing && out > 1)
    path[out++] = '/';
  path[out] = '\0';
  return out;
}

/* What /proc/PID/fd shows for files of kernel-internal mounts; NULL for a real file
 * system (a path outside the process's root). */
static gboolean
name_pseudo_file (GString    *out,
                  guint32     magic,
                  guint64     ino,
                  const char *walked)
{
  switch (magic)
    {
    case PIPEFS_MAGIC:
      g_string_printf (out, "pipe:[%" G_GUINT64_FORMAT "]", ino);
      return TRUE;
    case SOCKFS_MAGIC:
      g_string_printf (out, "socket:[%" G_GUINT64_FORMAT "]", ino);
      return TRUE;
    case ANON_INODE_FS_MAGIC:
      /* the dentry's name is the kind: "[eventfd]", "[eventpoll]" */
      g_string_printf (out, "anon_inode:%s", walked[0] == '/' ? walked + 1 : walked);
      return TRUE;
    case TMPFS_MAGIC:
    case HUGETLBFS_MAGIC:
      /* memfd_create's files live on an internal mount and are never linked */
      if (!g_str_has_prefix (walked, "/memfd:"))
        return FALSE;
      g_string_printf (out, "%s (deleted)", walked);
      return TRUE;
    case PID_FS_MAGIC:
      g_string_assign (out, "anon_inode:[pidfd]");
      return TRUE;
    case NSFS_MAGIC:
      g_string_printf (out, "ns:[%" G_GUINT64_FORMAT "]", ino);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
add_note (GString    *detail,
          const char *note)
{
  if (detail->len > 0)
    g_string_append (detail, ", ");
  g_string_append (detail, note);
}

/* Path flags (already shifted down for path2) -> the path shown, and notes in the detail.
 * @empty_is_base: the call has AT_EMPTY_PATH, so an empty string names the dirfd's file;
 * @null_is_fd: a NULL path names the dirfd's file (utimensat). */
static void
finish_path (GString     *out,
             const char  *raw,
             gsize        raw_len,
             guint32      flags,
             guint32      magic,
             guint64      ino,
             gboolean     verbatim,
             gboolean     empty_is_base,
             gboolean     null_is_fd,
             const char  *which,
             GString     *notes)
{
  gboolean whole_file = !(flags & FMD_BPF_F_PATH_RELATIVE) || (flags & FMD_BPF_F_PATH_EMPTY)
                        || (flags & FMD_BPF_F_PATH_NULL);
  gboolean cut;

  g_string_truncate (out, 0);

  if (((flags & FMD_BPF_F_PATH_EMPTY) && !empty_is_base)
      || ((flags & FMD_BPF_F_PATH_NULL) && !null_is_fd))
    {
      /* "" or NULL, which the call refuses: shown as given, never as the base */
      if (flags & FMD_BPF_F_PATH_NULL)
        {
          g_autofree char *note = g_strdup_printf ("%s NULL", which);
          add_note (notes, note);
        }
      return;
    }

  if ((flags & FMD_BPF_F_PATH_UNREACHABLE) && whole_file
      && name_pseudo_file (out, magic, ino, raw))
    return;

  g_string_append_len (out, raw, raw_len);
  if (!verbatim)
    g_string_set_size (out, fmd_bpf_path_tidy (out->str, out->len));
  /* The program kept the end of a path too deep for its buffer: the one rule of every
   * cut (fm-path.h) makes it "/.../dir/name". The marks take the place of bytes: an
   * event's path holds FM_PATH_MAX bytes at most, " (deleted)" included. */
  cut = fm_path_elide (out, FM_PATH_MAX - ((flags & FMD_BPF_F_PATH_DELETED) ? DELETED_LEN : 0),
                       (flags & FMD_BPF_F_PATH_TRUNCATED) != 0);
  /* a path kept from the middle of a component on was not absolute until now */
  if (cut && !verbatim)
    g_string_set_size (out, fmd_bpf_path_tidy (out->str, out->len));
  /* a string the kernel refused for its length: its end was never read, by the kernel
   * either, so what it read is shown, and the mark after it */
  if (flags & FMD_BPF_F_PATH_CUT)
    {
      fm_path_mark_end (out, FM_PATH_MAX);
      cut = TRUE;
    }

  if (flags & FMD_BPF_F_PATH_DELETED)
    g_string_append (out, DELETED);
  if (flags & FMD_BPF_F_PATH_UNKNOWN)
    {
      g_autofree char *note = g_strdup_printf ("%s unknown", which);
      add_note (notes, note);
    }
  if (cut)
    {
      g_autofree char *note = g_strdup_printf ("%s truncated", which);
      add_note (notes, note);
    }
  if (flags & FMD_BPF_F_PATH_DIR_DELETED)
    {
      g_autofree char *note = g_strdup_printf ("%s's directory deleted", which);
      add_note (notes, note);
    }
  if (flags & FMD_BPF_F_PATH_UNREACHABLE)
    {
      g_autofree char *note = g_strdup_printf ("%s outside the process's root", which);
      add_note (notes, note);
    }
}

/* The note of a chrooted process's paths: they read as the chroot sees them, but not a
 * path whose walk never met the process's root (a cwd or fd left outside it by chroot,
 * a pipe): that one reads from the namespace's root and has its own note, "outside the
 * process's root". Each shown path gets one of the two, never both. */
static void
chroot_note (GString  *notes,
             gboolean  shown,
             gboolean  outside,
             gboolean  shown2,
             gboolean  outside2)
{
  gboolean inside = shown && !outside, inside2 = shown2 && !outside2;

  if (!inside && !inside2)
    return;
  if ((shown && outside) || (shown2 && outside2))
    add_note (notes, inside ? "path inside the process's chroot"
                            : "path2 inside the process's chroot");
  else
    add_note (notes, "paths inside the process's chroot");
}

/* A path's flags in a record: the low byte and the cut bit; path2's are the same shifted
 * up by 8. */
#define PATH_FLAGS (0xffu | FMD_BPF_F_PATH_CUT)
#define AT_EMPTY_PATH_FLAG 0x1000

/* fm_syscall_format_detail, or the last detail again when the call and its registers are
 * the same and no argument comes from the record's strings. */
static void
format_detail (FmdBpfDecoder   *self,
               const FmSyscall *sc,
               const guint64    args[FM_SYSCALL_MAX_ARGS],
               const char      *arg_strings[FM_SYSCALL_MAX_ARGS])
{
  gsize n_args = MIN (sc->n_args, FM_SYSCALL_MAX_ARGS);
  gboolean registers_only = TRUE;

  for (gsize i = 0; i < n_args; i++)
    registers_only &= arg_strings[i] == NULL;

  if (registers_only && sc == self->memo_sc
      && memcmp (args, self->memo_args, n_args * sizeof args[0]) == 0)
    {
      g_string_append_len (self->detail, self->memo_detail->str, self->memo_detail->len);
      return;
    }

  fm_syscall_format_detail (sc, args, arg_strings, self->detail);
  self->memo_sc = registers_only ? sc : NULL;
  if (registers_only)
    {
      memcpy (self->memo_args, args, n_args * sizeof args[0]);
      g_string_assign (self->memo_detail, self->detail->str);
    }
}

gboolean
fmd_bpf_decoder_decode (FmdBpfDecoder  *self,
                        const void     *data,
                        gsize           len,
                        gint64          realtime_offset_ns,
                        FmEvent        *event,
                        GError        **error)
{
  const struct fmd_bpf_record *rec = data;
  const char *strings;
  const char *path, *path2, *str, *argv;
  const FmSyscall *sc;
  GString *notes = self->notes;
  gsize need;

  if (len < sizeof *rec)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_PARSE,
                   "bpf record of %" G_GSIZE_FORMAT " bytes, shorter than its header", len);
      return FALSE;
    }
  need = sizeof *rec + (gsize) rec->path_len + rec->path2_len + rec->str_len + rec->argv_len + 4;
  if (need > len || rec->path_len >= FMD_BPF_PATH_MAX || rec->path2_len >= FMD_BPF_PATH_MAX
      || rec->str_len >= FMD_BPF_STR_MAX || rec->argv_len >= FMD_BPF_ARGV_MAX)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_PARSE,
                   "bpf record of %" G_GSIZE_FORMAT " bytes holds strings of %u+%u+%u+%u bytes",
                   len, rec->path_len, rec->path2_len, rec->str_len, rec->argv_len);
      return FALSE;
    }
  strings = (const char *) (rec + 1);
  path = strings;
  path2 = path + rec->path_len + 1;
  str = path2 + rec->path2_len + 1;
  argv = str + rec->str_len + 1;
  if (path[rec->path_len] != '\0' || path2[rec->path2_len] != '\0'
      || str[rec->str_len] != '\0' || argv[rec->argv_len] != '\0')
    {
      g_set_error (error, FM_ERROR, FM_ERROR_PARSE, "bpf record with unterminated strings");
      return FALSE;
    }

  sc = fm_syscall_by_nr (rec->nr);
  g_string_truncate (notes, 0);

  memset (event, 0, sizeof *event);
  event->time_ns = rec->ktime_ns + realtime_offset_ns;
  event->duration_ns = rec->duration_ns;
  event->pid = rec->pid;
  event->ppid = rec->ppid;
  event->tid = rec->tid;
  event->uid = rec->uid;
  event->result = rec->result;
  event->syscall_nr = rec->nr;

  memcpy (self->comm, rec->comm, sizeof rec->comm);
  self->comm[FM_COMM_MAX - 1] = '\0';

  if (sc != self->paths_sc || sc == NULL)
    {
      self->paths_sc = sc;
      self->at_flags_index = sc != NULL ? fm_syscall_arg_index (sc, FM_ARG_AT_FLAGS) : -1;
      self->path2_verbatim = sc != NULL && (fm_syscall_arg_index (sc, FM_ARG_SYMLINK_TARGET) >= 0
                                            || fm_syscall_arg_index (sc, FM_ARG_MOUNT_SOURCE) >= 0);
    }
  {
    int at = self->at_flags_index;
    gboolean empty_is_base = at >= 0 && (rec->args[at] & AT_EMPTY_PATH_FLAG) != 0;
    gboolean null_is_fd = sc != NULL && (sc->traits & FM_TRAIT_NULL_PATH_IS_DIRFD) != 0;
    gboolean verbatim2 = self->path2_verbatim;

    finish_path (self->path, path, rec->path_len, rec->flags & PATH_FLAGS, rec->magic,
                 rec->ino, FALSE, empty_is_base, null_is_fd, "path", notes);
    finish_path (self->path2, path2, rec->path2_len, (rec->flags >> 8) & PATH_FLAGS,
                 rec->magic2, rec->ino2, verbatim2, FALSE, FALSE, "path2", notes);
  }

  if (rec->flags & FMD_BPF_F_CHROOT)
    chroot_note (notes, self->path->len > 0, (rec->flags & FMD_BPF_F_PATH_UNREACHABLE) != 0,
                 self->path2->len > 0, (rec->flags & FMD_BPF_F_PATH2_UNREACHABLE) != 0);
  /* ERESTARTSYS, ERESTARTNOINTR, ERESTARTNOHAND, ERESTART_RESTARTBLOCK: the kernel's own
   * codes, seen at syscall exit before the signal is handled; the process never sees them */
  if (rec->result <= -KERNEL_ERESTARTSYS && rec->result >= -KERNEL_ERESTART_RESTARTBLOCK)
    add_note (notes, RESTART_NOTE);

  g_string_truncate (self->detail, 0);
  if (sc != NULL)
    {
      guint64 args[FM_SYSCALL_MAX_ARGS];
      const char *arg_strings[FM_SYSCALL_MAX_ARGS] = { NULL };

      memcpy (args, rec->args, sizeof args);
      for (guint i = 0; i < sc->n_args && i < FM_SYSCALL_MAX_ARGS; i++)
        switch (fm_arg_kind_text (sc->args[i]))
          {
          case FM_ARG_TEXT_STRING:
            arg_strings[i] = str;
            break;
          case FM_ARG_TEXT_ARGV:
            /* each argument ended by a NUL in the record; the detail wants an empty one
             * after the last */
            g_string_truncate (self->argv, 0);
            g_string_append_len (self->argv, argv, rec->argv_len);
            if (rec->argv_len > 0 && argv[rec->argv_len - 1] != '\0')
              g_string_append_c (self->argv, '\0');
            g_string_append_c (self->argv, '\0');
            arg_strings[i] = self->argv->str;
            break;
          case FM_ARG_TEXT_STRUCT:
            if ((rec->flags & FMD_BPF_F_STRUCT) == 0)
              break;
            /* the decoder takes a struct as its words: "W0 W1 W2" (fm-syscalls.h) */
            g_snprintf (self->words, sizeof self->words, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                        " %" G_GUINT64_FORMAT, (guint64) rec->words[0], (guint64) rec->words[1],
                        (guint64) rec->words[2]);
            arg_strings[i] = self->words;
            break;
          case FM_ARG_TEXT_NONE:
          default:
            break;
          }
      format_detail (self, sc, args, arg_strings);
    }
  if (notes->len > 0)
    add_note (self->detail, notes->str);

  fm_event_set_strings (event, self->comm, self->path->str, self->path2->str, self->detail->str);
  return TRUE;
}
