/* filemond-bpf-engine.c: loading, attaching, configuring and tearing down the BPF object;
 * see filemond-bpf-engine.h for why an engine outlives a capture. */
#include "config.h"

#include "filemond-bpf-engine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fm-error.h"
#include "filemond-bpf.h"
#include "filemond.skel.h"
#include "filemond-compat.skel.h"

/* The compat object is opened through the default one's skeleton (see open_object), which
 * maps its globals with the default one's layout: they must be the same. */
#define SAME_SIZE(member) \
  G_STATIC_ASSERT (sizeof *((struct filemond_bpf *) NULL)->member \
                   == sizeof *((struct filemond_compat_bpf *) NULL)->member)
SAME_SIZE (rodata);
SAME_SIZE (data_hot);
SAME_SIZE (bss);
G_STATIC_ASSERT (sizeof ((struct filemond_bpf *) NULL)->maps
                 == sizeof ((struct filemond_compat_bpf *) NULL)->maps);
G_STATIC_ASSERT (sizeof ((struct filemond_bpf *) NULL)->progs
                 == sizeof ((struct filemond_compat_bpf *) NULL)->progs);

/* The process hooks first: a thread's slot must never outlive it, even for a moment. */
enum { LINK_FORK, LINK_EXEC, LINK_TASK_EXIT, LINK_SYS_EXIT, LINK_SYS_ENTER, N_LINKS };

struct _FmdBpfEngine {
  struct filemond_bpf *skel;
  struct ring_buffer *ring;
  guint64 ringbuf_bytes;
  int n_cpus;

  /* the programs' links, in the order they are attached */
  struct bpf_link *links[N_LINKS];

  FmdBpfRecordFunc consumer;
  gpointer consumer_data;
  int consumed;
};

/* --- libbpf's messages ------------------------------------------------------------------ */

G_GNUC_PRINTF (2, 0) static int
libbpf_print (enum libbpf_print_level  level,
              const char              *format,
              va_list                  args)
{
  g_autofree char *text = NULL;
  gsize len;

  /* verifier logs are long and only interesting when debugging */
  if (level == LIBBPF_DEBUG)
    return 0;
  text = g_strdup_vprintf (format, args);
  len = strlen (text);
  if (len > 0 && text[len - 1] == '\n')
    text[len - 1] = '\0';
  /* not g_warning: what went wrong reaches the caller as an error with its own words.
   * libbpf starts its messages with "libbpf: " itself. */
  if (level == LIBBPF_WARN)
    g_message ("%s", text);
  else
    g_info ("%s", text);
  return 0;
}

static void
ensure_initialized (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      libbpf_set_print (libbpf_print);
      g_once_init_leave (&done, 1);
    }
}

/* --- load ------------------------------------------------------------------------------- */

static int
ring_sample (void   *ctx,
             void   *data,
             size_t  len)
{
  FmdBpfEngine *self = ctx;

  self->consumed++;
  if (self->consumer != NULL && !self->consumer (data, len, self->consumer_data))
    return -ECANCELED;   /* the record is consumed; libbpf stops after it */
  return 0;
}

gboolean
fmd_bpf_kernel_at_least (guint    major,
                         guint    minor,
                         char   **release)
{
  struct utsname u;
  guint k_major = 0, k_minor = 0;

  if (uname (&u) != 0 || sscanf (u.release, "%u.%u", &k_major, &k_minor) != 2)
    return TRUE;
  if (release != NULL)
    *release = g_strdup (u.release);
  return k_major > major || (k_major == major && k_minor >= minor);
}

/* The default object needs the bpf_rdonly_cast kfunc (6.2+); the compat one does
 * without. By version, not by looking the kfunc up: parsing the kernel's BTF would slow
 * every Start. FILEMOND_BPF_OBJECT=compat loads the compat one anyway, so that it is
 * tested on any kernel. */
static gboolean
use_compat_object (void)
{
  return g_strcmp0 (g_getenv ("FILEMOND_BPF_OBJECT"), "compat") == 0
         || !fmd_bpf_kernel_at_least (6, 2, NULL);
}

/* filemond_bpf__open() with another object's bytes: the skeleton finds maps, programs and
 * global sections by name, which both variants share. */
static struct filemond_bpf *
open_object (const void *(*elf_bytes) (size_t *size))
{
  struct filemond_bpf *skel = calloc (1, sizeof *skel);
  int err;

  if (skel == NULL)
    return NULL;
  err = filemond_bpf__create_skeleton (skel);
  if (err == 0)
    {
      skel->skeleton->data = (void *) elf_bytes (&skel->skeleton->data_sz);
      err = bpf_object__open_skeleton (skel->skeleton, NULL);
    }
  if (err != 0)
    {
      filemond_bpf__destroy (skel);
      errno = -err;
      return NULL;
    }
  return skel;
}

/* The ring buffer map is readable (EPOLLIN) whenever it holds data, and libbpf
 * registers it level-triggered in its epoll fd, which is what the main loop polls. A
 * reader that never empties the ring faster than records arrive (under a loop of
 * syscalls) then found it readable again at every main loop iteration: with no wake-up
 * from the program, it read batches of a few dozen records, each paying the loop's and
 * the dispatch's fixed costs (bench/README.md, "Where filemond's time goes, round 2").
 * Edge-triggered, the fd is readable only after a wake-up (the program's threshold),
 * and fmd_bpf_engine_consume takes that edge before it reads. */
static gboolean
make_edge_triggered (FmdBpfEngine  *self,
                     GError       **error)
{
  /* libbpf's ring index as its epoll data: 0, the only ring */
  struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.fd = 0 };

  if (epoll_ctl (ring_buffer__epoll_fd (self->ring), EPOLL_CTL_MOD,
                 bpf_map__fd (self->skel->maps.events), &ev) < 0)
    {
      int saved_errno = errno;

      g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED,
                   "bpf: cannot set up the ring buffer's wake-ups: %s", g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

FmdBpfEngine *
fmd_bpf_engine_load (guint64   ringbuf_bytes,
                     GError  **error)
{
  g_autofree FmdBpfEngine *self = g_new0 (FmdBpfEngine, 1);
  gboolean compat;
  int err;

  g_return_val_if_fail (ringbuf_bytes >= 4096 && (ringbuf_bytes & (ringbuf_bytes - 1)) == 0, NULL);

  ensure_initialized ();

  self->n_cpus = libbpf_num_possible_cpus ();
  if (self->n_cpus <= 0)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED,
                   "bpf: cannot count the CPUs: %s", g_strerror (-self->n_cpus));
      return NULL;
    }

  compat = use_compat_object ();
  if (compat)
    g_info ("loading the compat program (no bpf_rdonly_cast, or FILEMOND_BPF_OBJECT=compat)");
  self->skel = open_object (compat ? filemond_compat_bpf__elf_bytes : filemond_bpf__elf_bytes);
  if (self->skel == NULL)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED,
                   "bpf: cannot open the embedded BPF object: %s", g_strerror (errno));
      return NULL;
    }

  /* wake the reader at an eighth of the buffer: often enough to keep room, rarely enough
   * that a wake-up is paid once per thousands of events */
  self->skel->rodata->wakeup_bytes = MIN (ringbuf_bytes / 8, 2 * 1024 * 1024);
  self->ringbuf_bytes = ringbuf_bytes;
  if ((err = bpf_map__set_max_entries (self->skel->maps.events, ringbuf_bytes)) != 0
      || (err = bpf_map__set_max_entries (self->skel->maps.scratch, self->n_cpus)) != 0)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED,
                   "bpf: cannot size the maps: %s", g_strerror (-err));
      filemond_bpf__destroy (self->skel);
      return NULL;
    }

  /* libbpf raises RLIMIT_MEMLOCK itself only where the kernel still charges it (not on
   * 5.11+, which accounts BPF memory to the cgroup) and ignores a refusal */
  err = filemond_bpf__load (self->skel);
  if (err != 0)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED,
                   "bpf: the kernel refused the BPF programs: %s%s", g_strerror (-err),
                   err == -EPERM ? " (needs CAP_BPF and CAP_PERFMON, or root)" : "");
      filemond_bpf__destroy (self->skel);
      return NULL;
    }

  self->ring = ring_buffer__new (bpf_map__fd (self->skel->maps.events), ring_sample, self, NULL);
  if (self->ring == NULL)
    {
      g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED,
                   "bpf: cannot map the ring buffer: %s", g_strerror (errno));
      filemond_bpf__destroy (self->skel);
      return NULL;
    }
  if (!make_edge_triggered (self, error))
    {
      ring_buffer__free (self->ring);
      filemond_bpf__destroy (self->skel);
      return NULL;
    }

  return g_steal_pointer (&self);
}

/* --- attach ----------------------------------------------------------------------------- */

gboolean
fmd_bpf_engine_attach (FmdBpfEngine  *self,
                       GError       **error)
{
  struct bpf_program *progs[N_LINKS] = {
    [LINK_FORK] = self->skel->progs.fmd_fork,
    [LINK_EXEC] = self->skel->progs.fmd_exec,
    [LINK_TASK_EXIT] = self->skel->progs.fmd_task_exit,
    [LINK_SYS_EXIT] = self->skel->progs.fmd_exit,
    [LINK_SYS_ENTER] = self->skel->progs.fmd_enter,
  };

  g_return_val_if_fail (self != NULL, FALSE);

  for (guint i = 0; i < N_LINKS; i++)
    {
      if (self->links[i] != NULL)
        continue;
      /* each program's section names its tracepoint */
      self->links[i] = bpf_program__attach (progs[i]);
      if (self->links[i] == NULL)
        {
          g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED,
                       "bpf: cannot attach %s to its tracepoint %s: %s",
                       bpf_program__name (progs[i]), bpf_program__section_name (progs[i]),
                       g_strerror (errno));
          return FALSE;
        }
    }
  return TRUE;
}

void
fmd_bpf_engine_detach_syscalls (FmdBpfEngine *self)
{
  /* a raw tracepoint link goes in a few ms; the process hooks stay, they cost nothing
   * until a process forks or exits */
  g_clear_pointer (&self->links[LINK_SYS_ENTER], bpf_link__destroy);
  g_clear_pointer (&self->links[LINK_SYS_EXIT], bpf_link__destroy);
}

guint
fmd_bpf_engine_get_n_links (FmdBpfEngine *self)
{
  guint n = 0;

  for (guint i = 0; i < N_LINKS; i++)
    n += self->links[i] != NULL;
  return n;
}

guint64
fmd_bpf_engine_get_ringbuf_bytes (FmdBpfEngine *self)
{
  return self->ringbuf_bytes;
}

/* --- configure -------------------------------------------------------------------------- */

/* The table's argument kinds and traits, as the program wants them: which argument index
 * holds the path, its dirfd, path2, the short string, argv, the struct copied at exit. */
static void
describe_syscall (const FmSyscall        *sc,
                  struct fmd_bpf_syscall *out)
{
  guint8 dirfd = FMD_BPF_NO_ARG;

  memset (out, 0, sizeof *out);
  out->path_arg = out->path_dirfd = FMD_BPF_NO_ARG;
  out->path2_arg = out->path2_dirfd = FMD_BPF_NO_ARG;
  out->str_arg = out->argv_arg = out->struct_arg = out->skip_arg = FMD_BPF_NO_ARG;
  out->exit_nr = fm_syscall_exit_nr (sc);
  if (sc->traits & FM_TRAIT_MOVES_CWD)
    out->traits |= FMD_BPF_T_MOVES_CWD;
  if (sc->traits & FM_TRAIT_EXEC)
    out->traits |= FMD_BPF_T_EXEC;

  for (guint8 i = 0; i < sc->n_args && i < FM_SYSCALL_MAX_ARGS; i++)
    {
      guint64 skip = fm_arg_kind_skip_bits (sc->args[i]);

      if (skip != 0)
        {
          out->skip_arg = i;
          out->skip_bits = (__u32) skip;
        }
      switch (fm_arg_kind_text (sc->args[i]))
        {
        case FM_ARG_TEXT_STRING:
          out->str_arg = i;
          break;
        case FM_ARG_TEXT_ARGV:
          out->argv_arg = i;
          break;
        case FM_ARG_TEXT_STRUCT:
          out->struct_arg = i;
          break;
        case FM_ARG_TEXT_NONE:
        default:
          break;
        }
      switch (sc->args[i])
        {
        case FM_ARG_PATH:
          out->path_src = FMD_BPF_SRC_STRING;
          out->path_arg = i;
          out->path_dirfd = dirfd;
          dirfd = FMD_BPF_NO_ARG;
          break;
        case FM_ARG_PATH2:
          out->path2_src = FMD_BPF_SRC_STRING;
          out->path2_arg = i;
          out->path2_dirfd = dirfd;
          dirfd = FMD_BPF_NO_ARG;
          break;
        case FM_ARG_SYMLINK_TARGET:
        case FM_ARG_MOUNT_SOURCE:
          out->path2_src = FMD_BPF_SRC_VERBATIM;
          out->path2_arg = i;
          break;
        case FM_ARG_FD:
          if (out->path_src == FMD_BPF_SRC_NONE)
            {
              out->path_src = FMD_BPF_SRC_FD;
              out->path_arg = i;
            }
          break;
        case FM_ARG_FD2:
          out->path2_src = FMD_BPF_SRC_FD;
          out->path2_arg = i;
          break;
        case FM_ARG_DIRFD:
          dirfd = i;
          break;
        default:
          break;
        }
    }

  /* a dirfd no path follows names the file itself (e.g. a syscall on a directory fd) */
  if (out->path_src == FMD_BPF_SRC_NONE && dirfd != FMD_BPF_NO_ARG)
    {
      out->path_src = FMD_BPF_SRC_FD;
      out->path_arg = dirfd;
    }
}

static void
clear_map (struct bpf_map *map)
{
  int fd = bpf_map__fd (map);
  guint8 key[64];

  g_assert (bpf_map__key_size (map) <= sizeof key);
  /* always the first key again: deleting invalidates the iteration */
  while (bpf_map_get_next_key (fd, NULL, key) == 0)
    if (bpf_map_delete_elem (fd, key) != 0)
      break;
}

/* Whether @n values are more than the map holds: then an error naming them. */
static gboolean
too_many (guint        n,
          guint        max,
          const char  *what,
          GError     **error)
{
  if (n <= max)
    return FALSE;
  g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
               "%u %s given; the kernel filter holds at most %u", n, what, max);
  return TRUE;
}

/* One entry of a filter's map. */
static gboolean
fill_entry (struct bpf_map  *map,
            const void      *key,
            gsize            key_size,
            const void      *value,
            gsize            value_size,
            const char      *filter,
            GError         **error)
{
  int err = bpf_map__update_elem (map, key, key_size, value, value_size, BPF_ANY);

  if (err == 0)
    return TRUE;
  g_set_error (error, FM_ERROR, FM_ERROR_BACKEND_FAILED,
               "bpf: cannot fill the %s filter: %s", filter, g_strerror (-err));
  return FALSE;
}

static gboolean
fill_u32_map (struct bpf_map  *map,
              GArray          *values,
              guint            max,
              const char      *what,
              GError         **error)
{
  guint8 one = 1;

  if (too_many (values->len, max, what, error))
    return FALSE;
  for (guint i = 0; i < values->len; i++)
    {
      guint32 key = g_array_index (values, guint32, i);

      if (!fill_entry (map, &key, sizeof key, &one, sizeof one, what, error))
        return FALSE;
    }
  return TRUE;
}

/* The prefixes as the program compares them (struct fmd_bpf_prefix). */
static gboolean
fill_prefixes (struct bpf_map      *map,
               const char *const   *path_prefixes,
               GError             **error)
{
  guint n = g_strv_length ((GStrv) path_prefixes);
  g_autofree struct fmd_bpf_prefix *prefix = g_new0 (struct fmd_bpf_prefix, 1);

  G_STATIC_ASSERT (FMD_OPTIONS_MAX_PREFIXES <= FMD_BPF_MAX_PREFIXES);
  G_STATIC_ASSERT (FMD_OPTIONS_MAX_PREFIX_BYTES <= FMD_BPF_PATH_MAX);

  if (too_many (n, FMD_BPF_MAX_PREFIXES, "path prefixes", error))
    return FALSE;
  for (guint32 i = 0; i < n; i++)
    {
      gsize len = strlen (path_prefixes[i]);

      if (path_prefixes[i][0] != '/' || len > FMD_BPF_PATH_MAX)
        {
          g_set_error (error, FM_ERROR, FM_ERROR_INVALID_ARGS,
                       "path prefix “%s” is not an absolute path of at most %u bytes",
                       path_prefixes[i], FMD_BPF_PATH_MAX);
          return FALSE;
        }
      memset (prefix, 0, sizeof *prefix);
      prefix->len = len - 1;
      memcpy (prefix->text, path_prefixes[i] + 1, len - 1);
      if (!fill_entry (map, &i, sizeof i, prefix, sizeof *prefix, "path prefix", error))
        return FALSE;
    }
  return TRUE;
}

/* The program's one-load pre-check of a pid or uid filter: a bit per key (modulo the size). */
static void
set_hints (__u64  *hint,
           GArray *keys)
{
  memset (hint, 0, FMD_BPF_HINT_BITS / 8);
  for (guint i = 0; i < keys->len; i++)
    {
      guint32 key = g_array_index (keys, guint32, i);

      hint[FMD_BPF_WORD (key, FMD_BPF_HINT_BITS)] |= FMD_BPF_BIT (key);
    }
}

gboolean
fmd_bpf_engine_configure (FmdBpfEngine      *self,
                          const FmdOptions  *options,
                          guint32            generation,
                          GError           **error)
{
  struct fmd_bpf_settings *settings = &self->skel->data_hot->settings;
  struct fmd_bpf_syscall *table = self->skel->bss->fmd_syscalls;
  __u64 *traced = self->skel->data_hot->traced;
  __u64 *exit_traced = self->skel->data_hot->exit_traced;
  guint n_comms = g_strv_length (options->comms);
  guint n_all = 0;
  const FmSyscall *all = fm_syscalls_all (&n_all);
  guint8 one = 1;

  g_return_val_if_fail (!__atomic_load_n (&settings->enabled, __ATOMIC_SEQ_CST), FALSE);

  clear_map (self->skel->maps.pids);
  clear_map (self->skel->maps.uids);
  clear_map (self->skel->maps.comms);

  memset (table, 0, sizeof (struct fmd_bpf_syscall) * FMD_BPF_MAX_NR);
  for (guint i = 0; i < n_all; i++)
    describe_syscall (&all[i], &table[all[i].nr]);
  memset (traced, 0, FMD_BPF_MAX_NR / 8);
  memset (exit_traced, 0, FMD_BPF_MAX_NR / 8);
  for (guint i = 0; i < options->syscalls->len; i++)
    {
      const FmSyscall *sc = g_ptr_array_index (options->syscalls, i);
      guint exit_nr = fm_syscall_exit_nr (sc);

      traced[FMD_BPF_WORD (sc->nr, FMD_BPF_MAX_NR)] |= FMD_BPF_BIT (sc->nr);
      exit_traced[FMD_BPF_WORD (sc->nr, FMD_BPF_MAX_NR)] |= FMD_BPF_BIT (sc->nr);
      exit_traced[FMD_BPF_WORD (exit_nr, FMD_BPF_MAX_NR)] |= FMD_BPF_BIT (exit_nr);
    }

  if (!fill_u32_map (self->skel->maps.pids, options->pids, FMD_BPF_MAX_PIDS / 2, "pids", error)
      || !fill_u32_map (self->skel->maps.uids, options->uids, FMD_BPF_MAX_UIDS, "uids", error))
    return FALSE;
  if (too_many (n_comms, FMD_BPF_MAX_COMMS, "comms", error))
    return FALSE;
  for (guint i = 0; i < n_comms; i++)
    {
      char key[16] = { 0 };

      /* options refuse comms longer than 15 bytes: they could never match */
      strncpy (key, options->comms[i], sizeof key - 1);
      if (!fill_entry (self->skel->maps.comms, key, sizeof key, &one, sizeof one, "comm", error))
        return FALSE;
    }

  if (!fill_prefixes (self->skel->maps.prefixes, (const char *const *) options->path_prefixes,
                      error))
    return FALSE;

  set_hints (self->skel->data_hot->pid_hint, options->pids);
  set_hints (self->skel->data_hot->uid_hint, options->uids);
  settings->self_tgid = getpid ();
  settings->filter_pids = options->pids->len > 0;
  settings->follow_children = options->follow_children;
  settings->filter_uids = options->uids->len > 0;
  settings->filter_comms = n_comms > 0;
  settings->failed_only = options->failed_only;
  settings->n_prefixes = g_strv_length (options->path_prefixes);
  /* a cached engine may come back with its last wake-up not yet read */
  self->skel->bss->reader_woken = 0;
  __atomic_store_n (&settings->generation, generation, __ATOMIC_SEQ_CST);
  return TRUE;
}

void
fmd_bpf_engine_set_enabled (FmdBpfEngine *self,
                            gboolean      enabled)
{
  __atomic_store_n (&self->skel->data_hot->settings.enabled, enabled ? 1 : 0, __ATOMIC_SEQ_CST);
}

void
fmd_bpf_engine_clear (FmdBpfEngine *self)
{
  /* the slots are kept per thread for speed while capturing; a stopped engine should not
   * hold 4 KiB for every thread that made a syscall */
  clear_map (self->skel->maps.slots);
  clear_map (self->skel->maps.pids);
  clear_map (self->skel->maps.uids);
  clear_map (self->skel->maps.comms);
}

/* --- the ring buffer -------------------------------------------------------------------- */

void
fmd_bpf_engine_set_consumer (FmdBpfEngine     *self,
                             FmdBpfRecordFunc  func,
                             gpointer          user_data)
{
  self->consumer = func;
  self->consumer_data = user_data;
}

int
fmd_bpf_engine_get_poll_fd (FmdBpfEngine *self)
{
  return ring_buffer__epoll_fd (self->ring);
}

int
fmd_bpf_engine_consume (FmdBpfEngine *self)
{
  struct epoll_event ev;
  int ret;

  self->consumed = 0;
  /* take the wake-up's edge before the read: one that comes during it makes the fd
   * readable again, so its records are not left for the tick */
  (void) epoll_wait (ring_buffer__epoll_fd (self->ring), &ev, 1, 0);
  ret = ring_buffer__consume (self->ring);
  /* after the read, so that a record that arrived during it with the backlog still at the
   * threshold wakes the reader again (filemond.bpf.c, reader_woken) */
  __atomic_store_n (&self->skel->bss->reader_woken, 0, __ATOMIC_RELEASE);
  if (ret < 0 && ret != -ECANCELED)
    {
      errno = -ret;
      return -1;
    }
  return self->consumed;
}

guint64
fmd_bpf_engine_read_drops (FmdBpfEngine *self)
{
  g_autofree guint64 *values = g_new0 (guint64, self->n_cpus);
  guint64 total = 0;

  for (guint32 reason = 0; reason < FMD_BPF_DROP_N; reason++)
    {
      if (bpf_map__lookup_elem (self->skel->maps.drops, &reason, sizeof reason, values,
                                sizeof (guint64) * self->n_cpus, 0) != 0)
        continue;
      for (int cpu = 0; cpu < self->n_cpus; cpu++)
        total += values[cpu];
    }
  return total;
}

/* --- ids -------------------------------------------------------------------------------- */

static void
add_prog_id (GArray *ids,
             int     fd)
{
  struct bpf_prog_info info = { 0 };
  __u32 len = sizeof info;

  if (fd >= 0 && bpf_obj_get_info_by_fd (fd, &info, &len) == 0)
    g_array_append_val (ids, info.id);
}

static void
add_link_id (GArray          *ids,
             struct bpf_link *link)
{
  struct bpf_link_info info = { 0 };
  __u32 len = sizeof info;

  if (link != NULL && bpf_obj_get_info_by_fd (bpf_link__fd (link), &info, &len) == 0)
    g_array_append_val (ids, info.id);
}

void
fmd_bpf_engine_get_ids (FmdBpfEngine *self,
                        GArray       *prog_ids,
                        GArray       *link_ids,
                        GArray       *map_ids)
{
  struct bpf_program *prog;
  struct bpf_map *map;

  bpf_object__for_each_program (prog, self->skel->obj)
    add_prog_id (prog_ids, bpf_program__fd (prog));
  bpf_object__for_each_map (map, self->skel->obj)
    {
      struct bpf_map_info info = { 0 };
      __u32 len = sizeof info;

      if (bpf_obj_get_info_by_fd (bpf_map__fd (map), &info, &len) == 0)
        g_array_append_val (map_ids, info.id);
    }
  for (guint i = 0; i < N_LINKS; i++)
    add_link_id (link_ids, self->links[i]);
}

/* --- teardown --------------------------------------------------------------------------- */

void
fmd_bpf_engine_free (FmdBpfEngine *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->ring, ring_buffer__free);
  /* the syscall programs first, the hooks that free their slots last; a raw tracepoint
   * link goes in a few ms, so one after the other is fast enough */
  for (guint i = N_LINKS; i-- > 0;)
    g_clear_pointer (&self->links[i], bpf_link__destroy);
  filemond_bpf__destroy (self->skel);
  g_free (self);
}
