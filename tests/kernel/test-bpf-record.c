/* test-bpf-record.c: decoding the BPF ring buffer's records without a kernel: paths tidied,
 * pipes and sockets named as /proc does, clock converted, malformed records refused. */
#include "config.h"

#include <string.h>
#include <linux/magic.h>

#include "fm-error.h"
#include "fm-syscalls.h"
#include "filemond-bpf-record.h"
#include "filemond-bpf.h"

typedef struct {
  struct fmd_bpf_record rec;
  char strings[FMD_BPF_DATA_MAX + 4];
} Record;

/* A record of @nr with these strings; returns its length. */
static gsize
make_record (Record     *r,
             const char *name,
             const char *path,
             const char *path2,
             const char *str,
             const char *argv)   /* '|' separates arguments */
{
  const FmSyscall *sc = fm_syscall_by_name (name);
  char *p = r->strings;

  g_assert_nonnull (sc);
  memset (r, 0, sizeof *r);
  r->rec.nr = sc->nr;
  r->rec.ktime_ns = 1000;
  r->rec.duration_ns = 42;
  r->rec.result = -2;
  r->rec.pid = 100;
  r->rec.tid = 101;
  r->rec.ppid = 1;
  r->rec.uid = 1000;
  r->rec.generation = 7;
  strcpy (r->rec.comm, "cat");

  r->rec.path_len = strlen (path);
  memcpy (p, path, r->rec.path_len + 1);
  p += r->rec.path_len + 1;
  r->rec.path2_len = strlen (path2);
  memcpy (p, path2, r->rec.path2_len + 1);
  p += r->rec.path2_len + 1;
  r->rec.str_len = strlen (str);
  memcpy (p, str, r->rec.str_len + 1);
  p += r->rec.str_len + 1;
  r->rec.argv_len = strlen (argv) + (argv[0] != '\0');
  for (gsize i = 0; argv[i] != '\0'; i++)
    p[i] = argv[i] == '|' ? '\0' : argv[i];
  p[r->rec.argv_len > 0 ? r->rec.argv_len - 1 : 0] = '\0';
  p[r->rec.argv_len] = '\0';
  p += r->rec.argv_len + 1;
  return p - (char *) r;
}

static void
decode_ok (FmdBpfDecoder *decoder,
           Record        *r,
           gsize          len,
           FmEvent       *event)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (fmd_bpf_decoder_decode (decoder, r, len, 5000, event, &error));
  g_assert_no_error (error);
}

static void
test_tidy (void)
{
  const struct { const char *in, *out; } cases[] = {
    { "/", "/" },
    { "/tmp/./x", "/tmp/x" },
    /* a trailing slash stays: it makes the call fail with ENOTDIR on a file */
    { "/tmp//x/", "/tmp/x/" },
    { "/etc/hostname/", "/etc/hostname/" },
    { "/tmp/.", "/tmp" },
    { "/./", "/" },
    { "/a/../b", "/a/../b" },
    { "/a/.hidden/..x", "/a/.hidden/..x" },
    { "relative/./x", "relative/./x" },
    { "", "" },
    { "/tmp/x", "/tmp/x" },
    { "/tmp/x/", "/tmp/x/" },
    { "/.", "/" },
    { "//", "/" },
    { "/tmp/..", "/tmp/.." },
    { "/tmp/.x/", "/tmp/.x/" },
    { "/tmp/x/.", "/tmp/x" },
    { "/tmp/x//", "/tmp/x/" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *copy = g_strdup (cases[i].in);
      gsize len = fmd_bpf_path_tidy (copy, strlen (copy));

      g_assert_cmpstr (copy, ==, cases[i].out);
      g_assert_cmpuint (len, ==, strlen (cases[i].out));
    }
}

static void
test_fields (void)
{
  g_autoptr(FmdBpfDecoder) decoder = fmd_bpf_decoder_new ();
  Record r;
  FmEvent e;
  gsize len = make_record (&r, "openat", "/tmp/./missing", "", "", "");

  r.rec.args[0] = (guint64) -100;
  decode_ok (decoder, &r, len, &e);
  g_assert_cmpuint (e.time_ns, ==, 6000);
  g_assert_cmpuint (e.duration_ns, ==, 42);
  g_assert_cmpint (e.result, ==, -2);
  g_assert_cmpuint (e.pid, ==, 100);
  g_assert_cmpuint (e.tid, ==, 101);
  g_assert_cmpuint (e.ppid, ==, 1);
  g_assert_cmpuint (e.uid, ==, 1000);
  g_assert_cmpuint (e.syscall_nr, ==, fm_syscall_by_name ("openat")->nr);
  g_assert_cmpstr (e.comm, ==, "cat");
  g_assert_cmpuint (e.comm_len, ==, 3);
  g_assert_cmpstr (e.path, ==, "/tmp/missing");
  g_assert_cmpstr (e.path2, ==, "");
  g_assert_cmpuint (fmd_bpf_record_generation (&r, len), ==, 7);
}

static void
test_pseudo_files (void)
{
  g_autoptr(FmdBpfDecoder) decoder = fmd_bpf_decoder_new ();
  const struct { guint32 magic; const char *walked, *shown; } cases[] = {
    { PIPEFS_MAGIC, "/", "pipe:[1234]" },
    { SOCKFS_MAGIC, "/", "socket:[1234]" },
    { ANON_INODE_FS_MAGIC, "/[eventfd]", "anon_inode:[eventfd]" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Record r;
      FmEvent e;
      gsize len = make_record (&r, "write", cases[i].walked, "", "", "");

      r.rec.flags = FMD_BPF_F_PATH_UNREACHABLE;
      r.rec.magic = cases[i].magic;
      r.rec.ino = 1234;
      decode_ok (decoder, &r, len, &e);
      g_assert_cmpstr (e.path, ==, cases[i].shown);
    }
}

static void
test_flags_become_notes (void)
{
  g_autoptr(FmdBpfDecoder) decoder = fmd_bpf_decoder_new ();
  Record r;
  FmEvent e;
  gsize len;

  len = make_record (&r, "close", "/tmp/gone", "", "", "");
  r.rec.flags = FMD_BPF_F_PATH_DELETED;
  decode_ok (decoder, &r, len, &e);
  g_assert_cmpstr (e.path, ==, "/tmp/gone (deleted)");

  len = make_record (&r, "openat", "", "", "", "");
  r.rec.flags = FMD_BPF_F_PATH_UNKNOWN;
  decode_ok (decoder, &r, len, &e);
  g_assert_cmpstr (e.path, ==, "");
  g_assert_nonnull (strstr (e.detail, "path unknown"));

  /* a walk that lost the start: the root, the marker, the components kept */
  len = make_record (&r, "rename", "/a", "/b/c", "", "");
  r.rec.flags = FMD_BPF_F_PATH2_TRUNCATED;
  decode_ok (decoder, &r, len, &e);
  g_assert_cmpstr (e.path2, ==, "/.../b/c");
  g_assert_nonnull (strstr (e.detail, "path2 truncated"));

  /* a name in a cwd too deep: the program kept the end from inside a component, whose
   * piece goes; what is left is tidied like any path */
  len = make_record (&r, "mkdir", "bcd/e//./name", "", "", "");
  r.rec.flags = FMD_BPF_F_PATH_TRUNCATED | FMD_BPF_F_PATH_RELATIVE;
  decode_ok (decoder, &r, len, &e);
  g_assert_cmpstr (e.path, ==, "/.../e/name");
  g_assert_nonnull (strstr (e.detail, "path truncated"));

  /* a deleted file that deep: " (deleted)" still fits the event */
  {
    g_autofree char *deep = g_strnfill (FMD_BPF_PATH_MAX - 1, 'd');

    /* short components: the cut falls within a few bytes of the limit */
    for (gsize i = 0; i + 1 < FMD_BPF_PATH_MAX - 1; i += 5)
      deep[i] = '/';
    len = make_record (&r, "close", deep, "", "", "");
    r.rec.flags = FMD_BPF_F_PATH_TRUNCATED | FMD_BPF_F_PATH_DELETED;
    decode_ok (decoder, &r, len, &e);
    g_assert_cmpuint (e.path_len, <=, FM_PATH_MAX);
    g_assert_true (g_str_has_prefix (e.path, "/.../d"));
    g_assert_true (g_str_has_suffix (e.path, "ddd (deleted)"));
  }

  /* a string cut at PATH_MAX: "..." after it */
  len = make_record (&r, "rename", "/a/b", "/c", "", "");
  r.rec.flags = FMD_BPF_F_PATH_CUT;
  decode_ok (decoder, &r, len, &e);
  g_assert_cmpstr (e.path, ==, "/a/b...");
  g_assert_cmpstr (e.path2, ==, "/c");
  g_assert_nonnull (strstr (e.detail, "path truncated"));

  /* a valid path of PATH_MAX - 1 bytes cut: the mark takes the place of its last bytes,
   * so that path and mark fit an event */
  {
    g_autofree char *long_path = g_strnfill (FM_PATH_MAX - 1, 'a');

    long_path[0] = '/';
    len = make_record (&r, "stat", long_path, "", "", "");
    r.rec.flags = FMD_BPF_F_PATH_CUT;
    decode_ok (decoder, &r, len, &e);
    g_assert_cmpuint (e.path_len, ==, FM_PATH_MAX);
    g_assert_true (g_str_has_suffix (e.path, "aaa..."));
  }

  /* in a chroot, each path gets the one note that is true of it */
  len = make_record (&r, "rename", "/in/chroot", "/outside/it", "", "");
  r.rec.flags = FMD_BPF_F_CHROOT | FMD_BPF_F_PATH2_UNREACHABLE;
  decode_ok (decoder, &r, len, &e);
  g_assert_cmpstr (e.detail, ==, "path2 outside the process's root, path inside the process's chroot");
  r.rec.flags = FMD_BPF_F_CHROOT | FMD_BPF_F_PATH_UNREACHABLE | FMD_BPF_F_PATH2_UNREACHABLE;
  decode_ok (decoder, &r, len, &e);
  g_assert_null (strstr (e.detail, "chroot"));
  r.rec.flags = FMD_BPF_F_CHROOT;
  decode_ok (decoder, &r, len, &e);
  g_assert_cmpstr (e.detail, ==, "paths inside the process's chroot");

  /* a read a signal interrupted: the kernel's code, and what the process gets */
  len = make_record (&r, "read", "/f", "", "", "");
  r.rec.result = -512;   /* ERESTARTSYS */
  decode_ok (decoder, &r, len, &e);
  g_assert_nonnull (strstr (e.detail, "(restarted, or EINTR for the process)"));

  /* open (""): the empty string the call refused, not the cwd it was resolved on */
  len = make_record (&r, "open", "/cwd", "", "", "");
  r.rec.flags = FMD_BPF_F_PATH_RELATIVE | FMD_BPF_F_PATH_EMPTY;
  decode_ok (decoder, &r, len, &e);
  g_assert_cmpstr (e.path, ==, "");

  /* newfstatat (fd, "", AT_EMPTY_PATH) on a pipe: the pipe, as fstat shows it */
  len = make_record (&r, "newfstatat", "/", "", "", "");
  r.rec.args[3] = 0x1000;
  r.rec.flags = FMD_BPF_F_PATH_RELATIVE | FMD_BPF_F_PATH_EMPTY | FMD_BPF_F_PATH_UNREACHABLE;
  r.rec.magic = 0x50495045;   /* PIPEFS_MAGIC */
  r.rec.ino = 77;
  decode_ok (decoder, &r, len, &e);
  g_assert_cmpstr (e.path, ==, "pipe:[77]");

  /* a memfd */
  len = make_record (&r, "write", "/memfd:x", "", "", "");
  r.rec.flags = FMD_BPF_F_PATH_UNREACHABLE;
  r.rec.magic = 0x01021994;   /* TMPFS_MAGIC */
  decode_ok (decoder, &r, len, &e);
  g_assert_cmpstr (e.path, ==, "/memfd:x (deleted)");

  /* futimens: utimensat (fd, NULL) names the fd's file */
  len = make_record (&r, "utimensat", "/f", "", "", "");
  r.rec.flags = FMD_BPF_F_PATH_NULL;
  decode_ok (decoder, &r, len, &e);
  g_assert_cmpstr (e.path, ==, "/f");

  /* a relative name in a deleted directory */
  len = make_record (&r, "openat", "/gone/x", "", "", "");
  r.rec.flags = FMD_BPF_F_PATH_RELATIVE | FMD_BPF_F_PATH_DIR_DELETED;
  decode_ok (decoder, &r, len, &e);
  g_assert_cmpstr (e.path, ==, "/gone/x");
  g_assert_nonnull (strstr (e.detail, "path's directory deleted"));
}

static void
test_strings_reach_the_detail (void)
{
  g_autoptr(FmdBpfDecoder) decoder = fmd_bpf_decoder_new ();
  Record r;
  FmEvent e;
  gsize len;

  len = make_record (&r, "execve", "/bin/ls", "", "", "ls|-l|/tmp");
  r.rec.result = 0;
  decode_ok (decoder, &r, len, &e);
  g_assert_nonnull (strstr (e.detail, "-l"));
  g_assert_nonnull (strstr (e.detail, "/tmp"));

  len = make_record (&r, "getxattr", "/etc/passwd", "", "user.fm-test", "");
  decode_ok (decoder, &r, len, &e);
  g_assert_nonnull (strstr (e.detail, "user.fm-test"));

  /* a symlink's target is text: not tidied */
  len = make_record (&r, "symlink", "/tmp/link", "./a//b", "", "");
  decode_ok (decoder, &r, len, &e);
  g_assert_cmpstr (e.path2, ==, "./a//b");
}

/* The decoder reuses the last detail when a call repeats its registers: each decode must
 * still give the detail that formatting this record alone gives. */
static void
test_repeated_calls_keep_their_own_detail (void)
{
  g_autoptr(FmdBpfDecoder) decoder = fmd_bpf_decoder_new ();
  g_autoptr(FmdBpfDecoder) fresh = NULL;
  const struct { const char *name; guint64 flags; guint64 mode; const char *str; } calls[] = {
    { "openat", 0x80000, 0, "" },             /* O_RDONLY|O_CLOEXEC */
    { "openat", 0x80000, 0, "" },
    { "openat", 0x80041, 0644, "" },          /* O_WRONLY|O_CREAT|O_CLOEXEC, 0644 */
    { "openat", 0x80041, 0600, "" },          /* only the mode differs */
    { "openat", 0x80000, 0, "" },
    { "getxattr", 0, 0, "user.a" },           /* a string argument: never reused */
    { "getxattr", 0, 0, "user.b" },
    { "mkdirat", 0x80000, 0, "" },            /* the same registers, another call */
    { "openat", 0x80000, 0, "" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      Record r;
      FmEvent e, want;
      gsize len = make_record (&r, calls[i].name, "/tmp/x", "", calls[i].str, "");
      g_autofree char *detail = NULL;

      r.rec.args[0] = (guint64) -100;
      r.rec.args[2] = calls[i].flags;
      r.rec.args[3] = calls[i].mode;
      decode_ok (decoder, &r, len, &e);
      detail = g_strdup (e.detail);

      g_clear_pointer (&fresh, fmd_bpf_decoder_free);
      fresh = fmd_bpf_decoder_new ();
      decode_ok (fresh, &r, len, &want);
      g_assert_cmpstr (detail, ==, want.detail);
    }
}

static void
test_malformed (void)
{
  g_autoptr(FmdBpfDecoder) decoder = fmd_bpf_decoder_new ();
  Record r;
  FmEvent e;
  gsize len = make_record (&r, "openat", "/tmp/x", "", "", "");

  {
    g_autoptr(GError) error = NULL;

    g_assert_false (fmd_bpf_decoder_decode (decoder, &r, sizeof r.rec - 1, 0, &e, &error));
    g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
  }
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (fmd_bpf_decoder_decode (decoder, &r, len - 1, 0, &e, &error));
    g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
  }
  {
    g_autoptr(GError) error = NULL;

    r.strings[r.rec.path_len] = 'x';   /* the NUL after the path */
    g_assert_false (fmd_bpf_decoder_decode (decoder, &r, len, 0, &e, &error));
    g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
  }
  {
    g_autoptr(GError) error = NULL;

    len = make_record (&r, "openat", "/tmp/x", "", "", "");
    r.rec.path_len = 60000;
    g_assert_false (fmd_bpf_decoder_decode (decoder, &r, len, 0, &e, &error));
    g_assert_error (error, FM_ERROR, FM_ERROR_PARSE);
  }
  g_assert_cmpuint (fmd_bpf_record_generation (&r, 3), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/bpf/record/tidy-drops-dot-components-keeps-dotdot", test_tidy);
  g_test_add_func ("/bpf/record/fields-and-realtime", test_fields);
  g_test_add_func ("/bpf/record/pipes-and-sockets-named-as-proc-does", test_pseudo_files);
  g_test_add_func ("/bpf/record/path-flags-become-notes", test_flags_become_notes);
  g_test_add_func ("/bpf/record/strings-reach-the-detail", test_strings_reach_the_detail);
  g_test_add_func ("/bpf/record/repeated-calls-keep-their-own-detail",
                   test_repeated_calls_keep_their_own_detail);
  g_test_add_func ("/bpf/record/malformed-records-are-refused", test_malformed);
  return g_test_run ();
}
