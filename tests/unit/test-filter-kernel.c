/* test-filter-kernel.c: the kernel part of a filter (fm-filter-kernel.h): examples per
 * trait, and/or/not combinations, negations that must not narrow it, the bounds; and a
 * randomized check that it is sound: over random filters of every field and random
 * events, each event a filter matches passes its kernel part. Seeded and reproducible:
 * FILEMON_TEST_SEED=N repeats a run (the seed is printed). */
#include <stdlib.h>
#include <string.h>

#include "fm-filter-build.h"
#include "fm-filter-kernel.h"
#include "fm-syscalls.h"

/* The kernel part as text: "nothing", or its restricted traits in a fixed order ("" when
 * none is). */
static char *
describe (const FmFilterKernel *k)
{
  g_autoptr(GString) s = g_string_new (NULL);

  if (k->matches_nothing)
    return g_strdup ("nothing");
  if (k->syscalls != NULL)
    {
      g_string_append (s, " syscalls=");
      for (guint i = 0; i < k->syscalls->len; i++)
        g_string_append_printf (s, "%s%s", i > 0 ? "," : "",
                                fm_syscall_by_nr (g_array_index (k->syscalls, guint32, i))->name);
    }
  if (k->pids != NULL)
    {
      g_string_append (s, " pids=");
      for (guint i = 0; i < k->pids->len; i++)
        g_string_append_printf (s, "%s%u", i > 0 ? "," : "", g_array_index (k->pids, guint32, i));
    }
  if (k->uids != NULL)
    {
      g_string_append (s, " uids=");
      for (guint i = 0; i < k->uids->len; i++)
        g_string_append_printf (s, "%s%u", i > 0 ? "," : "", g_array_index (k->uids, guint32, i));
    }
  if (k->comms != NULL)
    {
      g_string_append (s, " comms=");
      for (guint i = 0; i < k->comms->len; i++)
        g_string_append_printf (s, "%s%s", i > 0 ? "," : "", (char *) k->comms->pdata[i]);
    }
  if (k->failed_only)
    g_string_append (s, " failed");
  if (k->path_prefixes != NULL)
    {
      g_string_append (s, " paths=");
      for (guint i = 0; i < k->path_prefixes->len; i++)
        g_string_append_printf (s, "%s%s", i > 0 ? "," : "", (char *) k->path_prefixes->pdata[i]);
    }
  return g_strdup (s->len > 0 ? s->str + 1 : "");
}

static FmFilter *
compile (const char *text)
{
  g_autoptr(GError) error = NULL;
  FmFilter *filter = fm_filter_new (text, &error);

  if (filter == NULL)
    g_error ("“%s” does not compile: %s", text, error->message);
  return filter;
}

static char *
kernel_of (const char *text)
{
  g_autoptr(FmFilter) filter = compile (text);
  g_autoptr(FmFilterKernel) k = fm_filter_kernel_part (filter);

  return describe (k);
}

typedef struct {
  const char *filter;
  const char *kernel;
} Case;

static void
check_cases (const Case *cases, gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *got = kernel_of (cases[i].filter);

      if (!g_str_equal (got, cases[i].kernel))
        g_error ("“%s”: kernel part “%s”, expected “%s”", cases[i].filter, got, cases[i].kernel);
    }
}

#define CHECK_CASES(t) check_cases ((t), G_N_ELEMENTS (t))

static const Case trait_cases[] = {
  { "", "" },
  { "syscall=openat", "syscalls=openat" },
  { "syscall=openat or syscall=unlink", "syscalls=unlink,openat" },
  { "pid=1", "pids=1" }, { "pid=1 or pid=2", "pids=1,2" },
  { "uid=0", "uids=0" }, { "user=root", "uids=0" }, { "uid=1000 or user=root", "uids=0,1000" },
  { "comm=sshd", "comms=sshd" }, { "comm=sshd or comm=cat", "comms=sshd,cat" },
  { "failed", "failed" }, { "result<0", "failed" }, { "result<=-1", "failed" },
  { "result=-ENOENT", "failed" }, { "errno=EACCES", "failed" }, { "errno~ACC", "failed" },
  { "result<1", "" }, { "result<=0", "" }, { "result!=0", "" }, { "result>=0", "" },
  { "path=/etc/passwd", "paths=/etc/passwd" }, { "path=/etc/*", "paths=/etc" },
  { "path=/etc/pa??wd", "paths=/etc" }, { "path=/etc*", "paths=/" },
  { "path2=/tmp/*", "paths=/tmp" }, { "path=/etc/* or path=/tmp/*", "paths=/etc,/tmp" },
  /* what the kernel side cannot express leaves the trait free */
  { "comm=ssh*", "" }, { "comm~ssh", "" }, { "pid>1", "" }, { "uid<1000", "" },
  { "path~^/etc", "" }, { "path=*.conf", "" }, { "path=etc/*", "" }, { "path=/a//b/*", "" },
  { "path=/a/../b", "" }, { "passwd", "" }, { "/etc/", "" }, { "seq>3 and duration>1ms", "" },
  { "ppid=1 or tid=2", "" },
  /* a process name is at most 15 bytes: a longer one matches no process */
  { "comm=sixteen-bytes-xx", "nothing" },
  { "pid=0", "" },
  /* names that are not UTF-8 cannot be carried in the kernel part's strings */
  { "comm='ss\\xffd'", "" }, { "path='/etc/\\xff/*'", "" },
};

static void
test_traits (void)
{
  CHECK_CASES (trait_cases);
}

static const Case combination_cases[] = {
  { "pid=1 and comm=sshd and failed", "pids=1 comms=sshd failed" },
  { "pid=1 or comm=sshd", "" },
  { "(pid=1 and failed) or (pid=2 and failed)", "pids=1,2 failed" },
  { "(pid=1 and failed) or pid=2", "pids=1,2" },
  { "pid=1 and pid=2", "nothing" },
  { "(pid=1 and pid=2) or pid=3", "pids=3" },
  { "(pid=1 or pid=2) and (pid=2 or pid=3)", "pids=2" },
  { "pid=1 or pid>5", "" },
  { "syscall=openat and syscall=unlink", "nothing" },
  { "syscall=open* and not syscall=openat2", NULL },   /* compared with the table below */
  { "path=/etc/* and path=/etc/ssh/*", "paths=/etc/ssh" },
  { "uid=0 and (comm=sshd or comm=cron) and path=/etc/*", "uids=0 comms=sshd,cron paths=/etc" },
};

static void
test_combinations (void)
{
  g_autoptr(GString) expected = g_string_new ("syscalls=");
  guint n_all = 0;
  const FmSyscall *all = fm_syscalls_all (&n_all);
  g_autofree char *got = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (combination_cases); i++)
    if (combination_cases[i].kernel != NULL)
      check_cases (&combination_cases[i], 1);

  /* the table's syscalls named open* but openat2, in number order, by another glob */
  for (guint nr = 0; nr < FM_SYSCALL_NR_LIMIT; nr++)
    for (guint i = 0; i < n_all; i++)
      if (all[i].nr == nr && g_pattern_match_simple ("open*", all[i].name) &&
          !g_str_equal (all[i].name, "openat2"))
        g_string_append_printf (expected, "%s%s", expected->len > 9 ? "," : "", all[i].name);
  got = kernel_of ("syscall=open* and not syscall=openat2");
  g_assert_cmpstr (got, ==, expected->str);
  g_assert_nonnull (strstr (got, "openat"));
}

static const Case negation_cases[] = {
  { "not pid=1", "" }, { "pid!=1", "" }, { "not pid!=1", "pids=1" },
  { "not (pid!=1 or uid!=0)", "pids=1 uids=0" }, { "not (pid=1 and uid=0)", "" },
  { "not (pid=1 or uid=0)", "" }, { "not not comm=cat", "comms=cat" },
  { "not failed", "" }, { "not result>=0", "failed" }, { "not result<0", "" },
  { "not errno=EACCES", "" }, { "errno!=EACCES", "" }, { "not errno!=EACCES", "failed" },
  { "not path=/etc/*", "" }, { "path!=/etc/*", "" }, { "not comm=sshd", "" },
  { "comm!=sshd", "" }, { "not user=root", "" }, { "user!=root", "" },
  { "not (comm!=sshd and pid>3)", "" },
  { "not (failed and pid=3)", "" },
};

static void
test_negations (void)
{
  g_autofree char *all_but_close = kernel_of ("syscall!=close");
  g_autofree char *not_close = kernel_of ("not syscall=close");
  g_autofree char *names = NULL;

  CHECK_CASES (negation_cases);
  /* every syscall but close: the negation of a syscall comparison is exact */
  g_assert_cmpstr (all_but_close, ==, not_close);
  g_assert_true (g_str_has_prefix (all_but_close, "syscalls="));
  /* whole names: close_range stays */
  names = g_strconcat (",", all_but_close + strlen ("syscalls="), ",", NULL);
  g_assert_null (strstr (names, ",close,"));
  g_assert_nonnull (strstr (names, ",close_range,"));
  g_assert_nonnull (strstr (names, ",openat,"));
}

/* Sets past the kernel side's bounds are left free, never cut short. */
static void
test_bounds (void)
{
  g_autoptr(GString) many = g_string_new ("pid=1");
  g_autoptr(GString) enough = NULL;
  g_autofree char *got = NULL;

  for (guint i = 2; i <= FM_FILTER_KERNEL_MAX_IDS; i++)
    g_string_append_printf (many, " or pid=%u", i);
  enough = g_string_new (many->str);
  got = kernel_of (enough->str);
  g_assert_true (g_str_has_prefix (got, "pids=1,2,3,"));
  g_clear_pointer (&got, g_free);
  g_string_append_printf (many, " or pid=%u", FM_FILTER_KERNEL_MAX_IDS + 1);
  got = kernel_of (many->str);
  g_assert_cmpstr (got, ==, "");
}

/* Filters built from parts (the daemon's Start keys) give the same kernel part as the
 * same filter written out, and path prefixes by whole components. */
static void
test_built (void)
{
  const guint32 nrs[] = { fm_syscall_by_name ("openat")->nr, fm_syscall_by_name ("unlink")->nr };
  const char *comms[] = { "sshd", NULL };
  const char *prefixes[] = { "/etc", "/home/a*b", NULL };
  const guint32 pids[] = { 7, 3, 7 };
  FmFilter *f = fm_filter_new_any_number (FM_FIELD_SYSCALL, nrs, G_N_ELEMENTS (nrs));
  g_autoptr(FmFilterKernel) k = NULL;
  g_autofree char *got = NULL;
  FmEvent e = { .pid = 3, .result = -2 };

  f = fm_filter_new_and (f, fm_filter_new_any_text (FM_FIELD_COMM, comms));
  f = fm_filter_new_and (f, fm_filter_new_any_number (FM_FIELD_PID, pids, G_N_ELEMENTS (pids)));
  f = fm_filter_new_and (f, fm_filter_new_failed ());
  f = fm_filter_new_and (f, fm_filter_new_below (prefixes));
  k = fm_filter_kernel_part (f);
  got = describe (k);
  g_assert_cmpstr (got, ==, "syscalls=unlink,openat pids=3,7 comms=sshd failed paths=/etc,/home/a*b");

  e.syscall_nr = fm_syscall_by_name ("unlink")->nr;
  fm_event_set_strings (&e, "sshd", "/etc", "", "");
  g_assert_true (fm_filter_match (f, &e));
  fm_event_set_strings (&e, "sshd", "/etcetera", "", "");
  g_assert_false (fm_filter_match (f, &e));
  fm_event_set_strings (&e, "sshd", "/tmp/x", "/home/a*b/c", "");
  g_assert_true (fm_filter_match (f, &e));   /* path2, and * taken as a plain byte */
  fm_event_set_strings (&e, "sshd", "/tmp/x", "/home/aXb/c", "");
  g_assert_false (fm_filter_match (f, &e));
  e.pid = 5;
  fm_event_set_strings (&e, "sshd", "/etc", "", "");
  g_assert_false (fm_filter_match (f, &e));
  fm_filter_free (f);
}

/* --- soundness over random filters and events ------------------------------------------ */

static gboolean
has_u32 (GArray *set, guint32 v)
{
  for (guint i = 0; set != NULL && i < set->len; i++)
    if (g_array_index (set, guint32, i) == v)
      return TRUE;
  return set == NULL;
}

static gboolean
below (const char *prefix, const char *path)
{
  gsize n = strlen (prefix);

  if (g_str_equal (prefix, "/"))
    return path[0] == '/';
  return strncmp (path, prefix, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* What a backend does with the kernel part, written out here independently. */
static gboolean
passes (const FmFilterKernel *k, const FmEvent *e)
{
  gboolean comm_ok = k->comms == NULL, path_ok = k->path_prefixes == NULL;

  for (guint i = 0; k->comms != NULL && i < k->comms->len; i++)
    comm_ok |= g_str_equal (k->comms->pdata[i], e->comm);
  for (guint i = 0; k->path_prefixes != NULL && i < k->path_prefixes->len; i++)
    path_ok |= below (k->path_prefixes->pdata[i], e->path) ||
               below (k->path_prefixes->pdata[i], e->path2);
  return !k->matches_nothing && has_u32 (k->syscalls, e->syscall_nr) &&
         has_u32 (k->pids, e->pid) && has_u32 (k->uids, e->uid) && comm_ok &&
         (!k->failed_only || e->result < 0) && path_ok;
}

/* The traits of the kernel part every backend applies exactly. */
static gboolean
passes_exact (const FmFilterKernel *k, const FmEvent *e)
{
  return !k->matches_nothing && has_u32 (k->syscalls, e->syscall_nr) &&
         has_u32 (k->pids, e->pid) && has_u32 (k->uids, e->uid) &&
         (!k->failed_only || e->result < 0);
}

#define EXACT (FM_FILTER_TRAIT_SYSCALL | FM_FILTER_TRAIT_PID | FM_FILTER_TRAIT_UID | \
               FM_FILTER_TRAIT_FAILED)

/* Comparisons on every field of the table, values the events below take and miss. */
static const char *const atoms[] = {
  "pid=1", "pid=2", "pid!=1", "pid>1", "pid<=2", "ppid=1", "tid=2",
  "uid=0", "uid=1000", "uid!=0", "user=root", "user!=root", "user=r*", "user!=r*",
  "comm=sshd", "comm=cat", "comm=ss*", "comm!=cat", "comm~^c", "comm='ssh-agent'",
  "syscall=openat", "syscall=open*", "syscall!=close", "syscall~stat", "syscall=read",
  "syscall=?ename*", "failed", "result<0", "result=0", "result>=0", "result=-ENOENT",
  "result<=-2", "result<1", "result>-13", "errno=ENOENT", "errno!=EACCES", "errno~ACC",
  "errno~^EN", "errno~^$", "path=/etc/*", "path=/etc/passwd", "path=/e*", "path=/etc",
  "path2=/tmp/*", "path!=/etc/*", "path~^/etc", "path2=''", "path=*", "detail~O_",
  "seq>3", "time>0", "duration>1ms", "passwd", "/ss/", "tmp",
};

static void
random_filter (GRand *rand, GString *out, guint depth)
{
  guint choice = depth == 0 ? 0 : g_rand_int_range (rand, 0, 4);

  switch (choice)
    {
    case 0:
      g_string_append (out, atoms[g_rand_int_range (rand, 0, G_N_ELEMENTS (atoms))]);
      break;
    case 1:
      g_string_append (out, "not ");
      random_filter (rand, out, depth - 1);
      break;
    default:
      {
        guint n = g_rand_int_range (rand, 2, 4);

        g_string_append_c (out, '(');
        for (guint i = 0; i < n; i++)
          {
            if (i > 0)
              g_string_append (out, choice == 2 ? " and " : " or ");
            random_filter (rand, out, depth - 1);
          }
        g_string_append_c (out, ')');
      }
    }
}

static void
random_event (GRand *rand, FmEvent *e)
{
  static const char *const syscalls[] = { "openat", "open", "close", "read", "statx",
                                          "rename", "unlink", "newfstatat" };
  static const char *const comms[] = { "sshd", "cat", "ssh-agent", "" };
  static const char *const paths[] = { "/etc/passwd", "/etc", "/etcx", "/tmp/a", "", "/e",
                                       "relative" };
  static const gint64 results[] = { 0, 3, -2, -13 };
  static const guint32 uids[] = { 0, 1000 };

  memset (e, 0, sizeof *e);
  e->seq = g_rand_int_range (rand, 0, 6);
  e->pid = g_rand_int_range (rand, 1, 4);
  e->ppid = g_rand_int_range (rand, 0, 3);
  e->tid = g_rand_int_range (rand, 1, 4);
  e->uid = uids[g_rand_int_range (rand, 0, G_N_ELEMENTS (uids))];
  e->duration_ns = g_rand_int_range (rand, 0, 3) * 1000000;
  e->syscall_nr = fm_syscall_by_name (syscalls[g_rand_int_range (rand, 0, G_N_ELEMENTS (syscalls))])->nr;
  e->result = results[g_rand_int_range (rand, 0, G_N_ELEMENTS (results))];
  fm_event_set_strings (e, comms[g_rand_int_range (rand, 0, G_N_ELEMENTS (comms))],
                        paths[g_rand_int_range (rand, 0, G_N_ELEMENTS (paths))],
                        paths[g_rand_int_range (rand, 0, G_N_ELEMENTS (paths))],
                        g_rand_boolean (rand) ? "O_RDONLY" : "");
}

#define N_FILTERS 3000
#define N_EVENTS 300

static void
test_sound_on_random_filters (void)
{
  const char *seed_text = g_getenv ("FILEMON_TEST_SEED");
  guint32 seed = seed_text != NULL ? (guint32) strtoul (seed_text, NULL, 10) : 21;
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autofree FmEvent *events = g_new (FmEvent, N_EVENTS);
  guint restricted = 0, matched = 0, dropped = 0, reduced = 0, emptied = 0;

  g_test_message ("seed %u (FILEMON_TEST_SEED=%u repeats this run)", seed, seed);
  for (guint i = 0; i < N_EVENTS; i++)
    random_event (rand, &events[i]);

  for (guint f = 0; f < N_FILTERS; f++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      g_autoptr(FmFilter) filter = NULL;
      g_autoptr(FmFilterKernel) k = NULL;
      g_autoptr(FmFilter) remainder = NULL;
      g_autofree char *kernel = NULL;

      random_filter (rand, text, g_rand_int_range (rand, 0, 5));
      /* top-level conjuncts, some of which the source decides */
      if (g_rand_boolean (rand))
        {
          g_string_prepend (text, "(");
          g_string_append (text, ") and ");
          random_filter (rand, text, g_rand_int_range (rand, 0, 3));
        }
      filter = compile (text->str);
      k = fm_filter_kernel_part (filter);
      kernel = describe (k);
      if (*kernel != '\0')
        restricted++;
      remainder = fm_filter_kernel_remainder (filter, EXACT);
      emptied += remainder == NULL;
      for (guint i = 0; i < N_EVENTS; i++)
        {
          gboolean m = fm_filter_match (filter, &events[i]);
          gboolean p = passes (k, &events[i]);
          gboolean r = remainder == NULL || fm_filter_match (remainder, &events[i]);

          /* on what the source delivers, the remainder decides as the whole filter */
          if (passes_exact (k, &events[i]) && r != m)
            g_error ("seed %u: “%s” %s event %u (pid %u uid %u syscall %s result %"
                     G_GINT64_FORMAT ") that passes its kernel part “%s”, its remainder "
                     "does not", seed, text->str, m ? "matches" : "does not match", i,
                     events[i].pid, events[i].uid,
                     fm_syscall_by_nr (events[i].syscall_nr)->name, events[i].result, kernel);
          reduced += r && !m;   /* only outside the kernel part, by the check above */

          if (m && !p)
            g_error ("seed %u: “%s” matches event %u (pid %u uid %u comm “%s” syscall %s "
                     "result %" G_GINT64_FORMAT " path “%s” path2 “%s”) but its kernel "
                     "part “%s” drops it", seed, text->str, i, events[i].pid, events[i].uid,
                     events[i].comm, fm_syscall_by_nr (events[i].syscall_nr)->name,
                     events[i].result, events[i].path, events[i].path2, kernel);
          matched += m;
          dropped += !p;
        }
    }
  g_test_message ("%u of %d filters restricted the kernel side; %u matches, %u of %u "
                  "filter-event pairs dropped in the kernel; %u remainders empty, %u "
                  "pairs the remainder alone would take", restricted, N_FILTERS, matched,
                  dropped, N_FILTERS * N_EVENTS, emptied, reduced);
  /* a kernel part that restricted nothing would pass this check vacuously */
  g_assert_cmpuint (restricted, >, N_FILTERS / 4);
  g_assert_cmpuint (dropped, >, N_FILTERS * N_EVENTS / 10);
  g_assert_cmpuint (matched, >, N_FILTERS * N_EVENTS / 20);
  /* the remainders left conjuncts out (events outside the kernel part they would take)
   * and some were empty */
  g_assert_cmpuint (reduced, >, N_FILTERS * N_EVENTS / 50);
  g_assert_cmpuint (emptied, >, N_FILTERS / 50);
}

/* Which conjuncts the remainder keeps, case by case. */
static const struct {
  const char *filter;
  const char *remainder;   /* an event matching it; NULL: nothing is left */
  const char *kept;        /* a conjunct that must be kept: an event failing only it */
} remainder_cases[] = {
  { "pid=5 and failed and syscall=open*", NULL, NULL },
  { "(pid=1 or pid=2) and uid=1000 and result<0", NULL, NULL },
  { "", NULL, NULL },
  { "pid=5 and comm=sshd", "comm=sshd", "comm=cat" },
  { "failed and path=/etc/*", "path=/etc/*", "path=/tmp/x" },
  { "result=-2 and pid=5", "result=-2", "result=-13" },
  { "not failed and pid=5", "not failed", "result=-13" },
  { "pid=0 and syscall=openat", "pid=0", "pid=7" },
  { "pid=1 or failed", "pid=1 or failed", "pid=2" },
  { "not (pid=1 or pid=2)", "not (pid=1 or pid=2)", "pid=1" },
};

static void
set_event (FmEvent *e, const char *what)
{
  /* a successful openat of /etc/passwd by sshd, pid 5, uid 1000, then @what */
  memset (e, 0, sizeof *e);
  e->pid = 5;
  e->uid = 1000;
  e->syscall_nr = fm_syscall_by_name ("openat")->nr;
  fm_event_set_strings (e, "sshd", "/etc/passwd", "", "");
  if (g_str_equal (what, "comm=cat"))
    fm_event_set_strings (e, "cat", "/etc/passwd", "", "");
  else if (g_str_equal (what, "path=/tmp/x"))
    fm_event_set_strings (e, "sshd", "/tmp/x", "", "");
  else if (g_str_equal (what, "result=-13"))
    e->result = -13;
  else if (g_str_equal (what, "pid=7"))
    e->pid = 7;
  else if (g_str_equal (what, "pid=2"))
    e->pid = 2;
  else if (g_str_equal (what, "pid=1"))
    e->pid = 1;
}

static void
test_remainder (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (remainder_cases); i++)
    {
      g_autoptr(FmFilter) filter = compile (remainder_cases[i].filter);
      g_autoptr(FmFilter) remainder = fm_filter_kernel_remainder (filter, EXACT);
      FmEvent e;

      if (remainder_cases[i].remainder == NULL)
        {
          g_assert_null (remainder);
          continue;
        }
      g_assert_nonnull (remainder);
      set_event (&e, remainder_cases[i].kept);
      g_assert_false (fm_filter_match (remainder, &e));
    }
}

/* With the pid not applied exactly (follow-children), pid conjuncts stay. */
static void
test_remainder_of_fewer_traits (void)
{
  g_autoptr(FmFilter) filter = compile ("pid=5 and failed");
  g_autoptr(FmFilter) remainder = fm_filter_kernel_remainder (filter, EXACT & ~FM_FILTER_TRAIT_PID);
  FmEvent e;

  g_assert_nonnull (remainder);
  set_event (&e, "pid=7");
  e.result = -2;
  g_assert_false (fm_filter_match (remainder, &e));
  e.pid = 5;
  g_assert_true (fm_filter_match (remainder, &e));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/filter/kernel/per-trait", test_traits);
  g_test_add_func ("/filter/kernel/and-or-combine-per-trait", test_combinations);
  g_test_add_func ("/filter/kernel/negation-never-narrows", test_negations);
  g_test_add_func ("/filter/kernel/sets-past-bounds-are-free", test_bounds);
  g_test_add_func ("/filter/kernel/built-filters-same-model", test_built);
  g_test_add_func ("/filter/kernel/sound-on-random-filters", test_sound_on_random_filters);
  g_test_add_func ("/filter/kernel/remainder-keeps-what-the-source-cannot-decide", test_remainder);
  g_test_add_func ("/filter/kernel/remainder-of-fewer-traits", test_remainder_of_fewer_traits);
  return g_test_run ();
}
