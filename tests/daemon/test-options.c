/* test-options.c: Start's a{sv}: every bad input is InvalidArgs naming the culprit, good
 * input is parsed, normalized and round-trips to the Options property; the "filter" key
 * and the older keys make one filter, whose kernel part the backends read. */
#include <string.h>

#include "filemond-options.h"
#include "fm-error.h"
#include "test-daemon-util.h"
#include "fm-event.h"

/* Whether the options' filter keeps a call of @syscall by @pid with these paths. */
static gboolean
keeps (const FmdOptions *options,
       const char       *syscall,
       guint32           pid,
       gint64            result,
       const char       *path,
       const char       *path2)
{
  FmEvent e = { .pid = pid, .uid = 0, .result = result };

  e.syscall_nr = fm_syscall_by_name (syscall)->nr;
  fm_event_set_strings (&e, "sshd", path, path2, "");
  return fm_filter_match (options->filter, &e);
}

static FmdOptions *
parse (const char  *text,
       GError     **error)
{
  g_autoptr(GVariant) v = g_variant_parse (G_VARIANT_TYPE_VARDICT, text, NULL, NULL, NULL);

  g_assert_nonnull (v);
  return fmd_options_new_from_variant (v, test_registry (), error);
}

/* @text is refused with InvalidArgs and a message containing @culprit. */
static void
assert_refused (const char *text,
                const char *culprit)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdOptions) options = parse (text, &error);

  g_assert_null (options);
  g_assert_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS);
  if (strstr (error->message, culprit) == NULL)
    g_error ("message for %s does not name “%s”: %s", text, culprit, error->message);
}

static void
test_empty_gives_defaults (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdOptions) options = parse ("@a{sv} {}", &error);
  guint n_all = 0;

  g_assert_no_error (error);
  fm_syscalls_all (&n_all);
  g_assert_cmpstr (options->backend, ==, "auto");
  g_assert_cmpuint (options->syscalls->len, ==, n_all);
  g_assert_cmpuint (n_all, >, 30);
  g_assert_cmpuint (options->pids->len, ==, 0);
  g_assert_cmpuint (options->uids->len, ==, 0);
  g_assert_null (options->comms[0]);
  g_assert_null (options->path_prefixes[0]);
  g_assert_false (options->follow_children);
  g_assert_false (options->failed_only);
  g_assert_true (fmd_options_has_syscall (options, fm_syscall_by_name ("openat")->nr));
  g_assert_cmpstr (options->filter_text, ==, "");
  g_assert_true (keeps (options, "close", 1, 0, "", ""));
}

static void
test_every_key_parses (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdOptions) options = parse (
    "{'backend': <'bpf'>, 'syscalls': <['openat', 'unlink', 'openat']>, "
    "'pids': <[@u 12, 12, 40]>, 'follow-children': <true>, 'uids': <[@u 0, 1000]>, "
    "'comms': <['sshd', 'bash', 'sshd']>, 'failed-only': <true>, "
    "'path-prefixes': <['/etc/', '/var//log/./', '/']>}", &error);

  g_assert_no_error (error);
  g_assert_cmpstr (options->backend, ==, "bpf");
  g_assert_cmpuint (options->syscalls->len, ==, 2);   /* duplicates merged */
  g_assert_true (fmd_options_has_syscall (options, fm_syscall_by_name ("unlink")->nr));
  g_assert_false (fmd_options_has_syscall (options, fm_syscall_by_name ("close")->nr));
  g_assert_cmpuint (options->pids->len, ==, 2);
  g_assert_true (options->follow_children);
  g_assert_cmpuint (options->uids->len, ==, 2);
  g_assert_cmpuint (g_strv_length (options->comms), ==, 2);
  g_assert_true (options->failed_only);
  g_assert_cmpstr (options->path_prefixes[0], ==, "/etc");
  g_assert_cmpstr (options->path_prefixes[1], ==, "/var/log");
  g_assert_cmpstr (options->path_prefixes[2], ==, "/");
}

static void
test_unknown_key_is_refused (void)
{
  assert_refused ("{'sycalls': <['openat']>}", "sycalls");
  assert_refused ("{'Backend': <'stap'>}", "Backend");
}

static void
test_wrong_types_are_refused (void)
{
  assert_refused ("{'backend': <1>}", "backend");
  assert_refused ("{'syscalls': <'openat'>}", "syscalls");
  assert_refused ("{'pids': <[@i 1]>}", "pids");
  assert_refused ("{'pids': <@as ['1']>}", "pids");
  assert_refused ("{'follow-children': <'yes'>}", "follow-children");
  assert_refused ("{'uids': <@u 1000>}", "uids");
  assert_refused ("{'comms': <[@ay b'sshd']>}", "comms");
  assert_refused ("{'failed-only': <1>}", "failed-only");
  assert_refused ("{'path-prefixes': <'/etc'>}", "path-prefixes");
}

static void
test_bad_values_are_refused (void)
{
  assert_refused ("{'backend': <'dtrace'>}", "dtrace");
  assert_refused ("{'syscalls': <@as []>}", "syscalls");
  assert_refused ("{'syscalls': <['openat', 'fork']>}", "fork");
  /* the message points at a command that exists (tests/cli runs it) */
  assert_refused ("{'syscalls': <['openat', 'fork']>}", "'filemonctl start --syscalls=help'");
  assert_refused ("{'syscalls': <['']>}", "syscalls");
  assert_refused ("{'pids': <[@u 0]>}", "pids");
  assert_refused ("{'uids': <[@u 4294967295]>}", "uids");
  assert_refused ("{'comms': <['a-name-too-long-for-comm']>}", "a-name-too-long-for-comm");
  assert_refused ("{'comms': <['']>}", "comms");
  assert_refused ("{'path-prefixes': <['etc']>}", "etc");
  assert_refused ("{'path-prefixes': <['']>}", "path-prefixes");
  assert_refused ("{'path-prefixes': <['/etc/../root']>}", "/etc/../root");
  assert_refused ("{'follow-children': <true>}", "follow-children");
}

static void
test_comm_of_fifteen_bytes_is_accepted (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdOptions) options = parse ("{'comms': <['fifteen-bytes-x']>}", &error);

  g_assert_no_error (error);
  g_assert_cmpstr (options->comms[0], ==, "fifteen-bytes-x");
}

static void
test_path_prefixes_match_components (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdOptions) options = parse ("{'path-prefixes': <['/etc', '/home/u/']>}", &error);
  g_autoptr(FmdOptions) root = parse ("{'path-prefixes': <['/']>}", &error);

  g_assert_no_error (error);
  g_assert_true (keeps (options, "openat", 1, 0, "/etc", ""));
  g_assert_true (keeps (options, "openat", 1, 0, "/etc/passwd", ""));
  g_assert_false (keeps (options, "openat", 1, 0, "/etcetera", ""));
  g_assert_false (keeps (options, "openat", 1, 0, "/et", ""));
  g_assert_true (keeps (options, "rename", 1, 0, "/tmp/x", "/home/u/y"));
  g_assert_false (keeps (options, "rename", 1, 0, "/tmp/x", "/home/uu"));
  g_assert_false (keeps (options, "openat", 1, 0, "", ""));
  g_assert_true (keeps (root, "openat", 1, 0, "/anything", ""));
  g_assert_false (keeps (root, "openat", 1, 0, "", ""));
}

/* The filter's kernel part is what the backends read: the trait fields. */
static void
test_filter_gives_kernel_part (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdOptions) options = parse (
    "{'filter': <'syscall=open* and (comm=sshd or comm=cron) and failed and path=/etc/* "
    "and user=root and not pid=1'>}", &error);

  g_assert_no_error (error);
  g_assert_cmpstr (options->filter_text, ==, "syscall=open* and (comm=sshd or comm=cron) and "
                   "failed and path=/etc/* and user=root and not pid=1");
  g_assert_true (fmd_options_has_syscall (options, fm_syscall_by_name ("openat")->nr));
  g_assert_true (fmd_options_has_syscall (options, fm_syscall_by_name ("open")->nr));
  g_assert_false (fmd_options_has_syscall (options, fm_syscall_by_name ("close")->nr));
  g_assert_cmpuint (g_strv_length (options->comms), ==, 2);
  g_assert_cmpstr (options->comms[0], ==, "sshd");
  g_assert_cmpstr (options->comms[1], ==, "cron");
  g_assert_true (options->failed_only);
  g_assert_cmpstr (options->path_prefixes[0], ==, "/etc");
  g_assert_null (options->path_prefixes[1]);
  g_assert_cmpuint (options->uids->len, ==, 1);
  g_assert_cmpuint (g_array_index (options->uids, guint32, 0), ==, 0);
  g_assert_cmpuint (options->pids->len, ==, 0);   /* not pid=1 says nothing the kernel can */
  /* the filter itself is the matcher: pid 1 is dropped in user space */
  g_assert_true (keeps (options, "openat", 2, -2, "/etc/x", ""));
  g_assert_false (keeps (options, "openat", 1, -2, "/etc/x", ""));
  g_assert_false (keeps (options, "openat", 2, 3, "/etc/x", ""));
}

/* The older keys are conjuncts of the same filter: the kernel part is their meeting. */
static void
test_filter_and_keys_are_one_filter (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdOptions) options = parse (
    "{'filter': <'pid=6 or pid=7'>, 'pids': <[@u 5, 6]>, 'syscalls': <['openat', 'close']>, "
    "'path-prefixes': <['/etc']>}", &error);
  g_autoptr(FmdOptions) follow = parse (
    "{'filter': <'path=/tmp/*'>, 'pids': <[@u 5]>, 'follow-children': <true>}", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (options->pids->len, ==, 1);
  g_assert_cmpuint (g_array_index (options->pids, guint32, 0), ==, 6);
  g_assert_cmpuint (options->syscalls->len, ==, 2);
  g_assert_true (keeps (options, "openat", 6, 0, "/etc/x", ""));
  g_assert_false (keeps (options, "openat", 5, 0, "/etc/x", ""));
  g_assert_false (keeps (options, "openat", 7, 0, "/etc/x", ""));
  g_assert_false (keeps (options, "unlink", 6, 0, "/etc/x", ""));
  g_assert_false (keeps (options, "openat", 6, 0, "/tmp/x", ""));
  /* with follow-children the pids are the backend's: a child's pid passes the filter */
  g_assert_cmpuint (follow->pids->len, ==, 1);
  g_assert_true (follow->follow_children);
  g_assert_true (keeps (follow, "openat", 999, 0, "/tmp/x", ""));
  g_assert_false (keeps (follow, "openat", 999, 0, "/etc/x", ""));
  g_assert_cmpstr (follow->path_prefixes[0], ==, "/tmp");
}

static void
test_bad_filter_is_refused_with_column (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdOptions) options = parse ("{'filter': <'pid=1 and (comm=x'>}", &error);

  g_assert_null (options);
  g_assert_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS);
  g_assert_cmpstr (error->message, ==, "option “filter”: column 18: expected ) to close the ( at column 11");
  assert_refused ("{'filter': <'pid=x'>}", "option “filter”: column 5: expected a number");
  assert_refused ("{'filter': <'nosuchfield=1'>}", "column 1: unknown field");
  assert_refused ("{'filter': <'pid=1 and pid=2'>}", "can match no event");
  assert_refused ("{'filter': <'pid=1'>, 'pids': <[@u 2]>}", "can match no event");
  assert_refused ("{'filter': <'syscall=unlink'>, 'syscalls': <['openat']>}", "can match no event");
  assert_refused ("{'filter': <1>}", "filter");
}

static void
test_to_variant_round_trips (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdOptions) options = parse (
    "{'backend': <'stap'>, 'syscalls': <['unlink', 'openat']>, 'pids': <[@u 5]>, "
    "'follow-children': <true>, 'comms': <['sshd']>, 'path-prefixes': <['/etc']>, "
    "'filter': <'uid=0 or user=root or (path=/etc/ssh/* and not failed)'>}", &error);
  g_autoptr(GVariant) v = g_variant_ref_sink (fmd_options_to_variant (options));
  g_autoptr(FmdOptions) again = fmd_options_new_from_variant (v, test_registry (), &error);
  g_autoptr(GVariant) v2 = NULL;
  g_autoptr(FmdOptions) copy = NULL;
  g_autoptr(GVariant) v3 = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (again);
  /* every key is there, defaults filled in */
  g_assert_cmpuint (g_variant_n_children (v), ==, 9);
  v2 = g_variant_ref_sink (fmd_options_to_variant (again));
  g_assert_true (g_variant_equal (v, v2));
  copy = fmd_options_copy (again);
  v3 = g_variant_ref_sink (fmd_options_to_variant (copy));
  g_assert_true (g_variant_equal (v, v3));
}

static void
test_backend_names (void)
{
  FmdBackendRegistry *registry = test_registry ();
  g_autofree char *names = fmd_backend_registry_dup_names (registry);

  /* SystemTap first: "auto" prefers it where it can run */
  g_assert_cmpuint (fmd_backend_registry_get_n_types (registry), ==, 2);
  g_assert_cmpstr (fmd_backend_type_get_name (fmd_backend_registry_nth (registry, 0)), ==, "stap");
  g_assert_cmpstr (fmd_backend_type_get_name (fmd_backend_registry_nth (registry, 1)), ==, "bpf");
  g_assert_true (fmd_backend_registry_lookup (registry, "bpf") ==
                 fmd_backend_registry_nth (registry, 1));
  g_assert_null (fmd_backend_registry_lookup (registry, "BPF"));
  g_assert_true (fmd_backend_registry_name_is_valid (registry, "auto"));
  g_assert_true (fmd_backend_registry_name_is_valid (registry, "stap"));
  g_assert_false (fmd_backend_registry_name_is_valid (registry, "BPF"));
  g_assert_false (fmd_backend_registry_name_is_valid (registry, ""));
  g_assert_cmpstr (names, ==, "auto, stap or bpf");
}

static GVariant *
ids_option (const char *key,
            guint       n,
            guint       distinct)
{
  g_autoptr(GVariantBuilder) ids = g_variant_builder_new (G_VARIANT_TYPE ("au"));
  GVariantDict dict;

  for (guint i = 0; i < n; i++)
    g_variant_builder_add (ids, "u", 1 + i % distinct);
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert_value (&dict, key, g_variant_builder_end (ids));
  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

static GVariant *
prefixes_option (guint n,
                 gsize len)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) prefixes = NULL;
  GVariantDict dict;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *p = g_strdup_printf ("/%0*u", (int) len - 1, i);

      g_strv_builder_add (builder, p);
    }
  prefixes = g_strv_builder_end (builder);
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert_value (&dict, "path-prefixes",
                               g_variant_new_strv ((const char * const *) prefixes, -1));
  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

static void
assert_variant_refused (GVariant   *asv,
                        const char *culprit)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FmdOptions) options = fmd_options_new_from_variant (asv, test_registry (), &error);

  g_assert_null (options);
  g_assert_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS);
  g_assert_nonnull (strstr (error->message, culprit));
}

static void
test_lists_are_bounded (void)
{
  g_autoptr(GVariant) uids_max = ids_option ("uids", FMD_OPTIONS_MAX_IDS, FMD_OPTIONS_MAX_IDS);
  g_autoptr(GVariant) uids_over = ids_option ("uids", FMD_OPTIONS_MAX_IDS + 1, 3);
  g_autoptr(GVariant) pids_over = ids_option ("pids", 400000, 400000);
  g_autoptr(GVariant) prefixes_max = prefixes_option (FMD_OPTIONS_MAX_PREFIXES, 64);
  g_autoptr(GVariant) prefixes_over = prefixes_option (FMD_OPTIONS_MAX_PREFIXES + 1, 8);
  g_autoptr(GVariant) prefix_long = prefixes_option (1, FMD_OPTIONS_MAX_PREFIX_BYTES + 1);
  g_autoptr(FmdOptions) options = NULL;

  options = fmd_options_new_from_variant (uids_max, test_registry (), NULL);
  g_assert_nonnull (options);
  g_assert_cmpuint (options->uids->len, ==, FMD_OPTIONS_MAX_IDS);
  g_clear_pointer (&options, fmd_options_free);
  options = fmd_options_new_from_variant (prefixes_max, test_registry (), NULL);
  g_assert_nonnull (options);
  g_assert_cmpuint (g_strv_length (options->path_prefixes), ==, FMD_OPTIONS_MAX_PREFIXES);

  assert_variant_refused (uids_over, "uids");
  assert_variant_refused (pids_over, "pids");
  assert_variant_refused (prefixes_over, "path-prefixes");
  assert_variant_refused (prefix_long, "path-prefixes");
}

static void
test_duplicates_merge (void)
{
  g_autoptr(GVariant) uids = ids_option ("uids", FMD_OPTIONS_MAX_IDS, 7);
  g_autoptr(FmdOptions) options = fmd_options_new_from_variant (uids, test_registry (), NULL);

  g_assert_nonnull (options);
  g_assert_cmpuint (options->uids->len, ==, 7);
  for (guint i = 0; i < 7; i++)
    g_assert_cmpuint (g_array_index (options->uids, guint32, i), ==, i + 1);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/options/empty-gives-defaults", test_empty_gives_defaults);
  g_test_add_func ("/options/every-key-parses-and-normalizes", test_every_key_parses);
  g_test_add_func ("/options/unknown-key-is-refused-by-name", test_unknown_key_is_refused);
  g_test_add_func ("/options/wrong-type-is-refused-by-name", test_wrong_types_are_refused);
  g_test_add_func ("/options/bad-value-is-refused-by-name", test_bad_values_are_refused);
  g_test_add_func ("/options/comm-of-fifteen-bytes-is-accepted", test_comm_of_fifteen_bytes_is_accepted);
  g_test_add_func ("/options/path-prefixes-match-whole-components", test_path_prefixes_match_components);
  g_test_add_func ("/options/filter-gives-the-kernel-part", test_filter_gives_kernel_part);
  g_test_add_func ("/options/filter-and-keys-are-one-filter", test_filter_and_keys_are_one_filter);
  g_test_add_func ("/options/bad-filter-is-refused-with-its-column", test_bad_filter_is_refused_with_column);
  g_test_add_func ("/options/to-variant-round-trips", test_to_variant_round_trips);
  g_test_add_func ("/options/backend-names", test_backend_names);
  g_test_add_func ("/options/lists-and-prefixes-are-bounded", test_lists_are_bounded);
  g_test_add_func ("/options/duplicates-merge-in-order", test_duplicates_merge);

  return g_test_run ();
}
