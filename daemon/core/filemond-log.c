/* filemond-log.c: the GLib structured log writer of filemond; see filemond-log.h. */
#include "filemond-log.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static gboolean to_journal;
static char **debug_domains;   /* G_MESSAGES_DEBUG's names, read once */

/* systemd sets JOURNAL_STREAM=DEV:INODE for the stream it connects stderr to; when
 * stderr is still that stream, structured fields are better sent to the journal socket. */
static gboolean
stderr_is_journal_stream (void)
{
  const char *env = g_getenv ("JOURNAL_STREAM");
  g_autofree char *expected = NULL;
  struct stat st;

  if (g_log_writer_is_journald (fileno (stderr)))
    return TRUE;
  if (env == NULL || fstat (STDERR_FILENO, &st) < 0)
    return FALSE;

  expected = g_strdup_printf ("%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT,
                              (guint64) st.st_dev, (guint64) st.st_ino);
  return g_str_equal (env, expected);
}

static const char *
level_name (GLogLevelFlags level)
{
  switch (level & G_LOG_LEVEL_MASK)
    {
    case G_LOG_LEVEL_ERROR: return "error";
    case G_LOG_LEVEL_CRITICAL: return "critical";
    case G_LOG_LEVEL_WARNING: return "warning";
    case G_LOG_LEVEL_MESSAGE: return "notice";
    case G_LOG_LEVEL_INFO: return "info";
    case G_LOG_LEVEL_DEBUG: return "debug";
    default: return "log";
    }
}

static GLogWriterOutput
write_stderr (GLogLevelFlags   level,
              const GLogField *fields,
              gsize            n_fields)
{
  const char *message = NULL;
  const char *domain = NULL;

  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_str_equal (fields[i].key, "MESSAGE"))
        message = fields[i].value;
      else if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
        domain = fields[i].value;
    }

  fprintf (stderr, "filemond: %s%s%s: %s\n", level_name (level),
           domain != NULL ? " " : "", domain != NULL ? domain : "",
           message != NULL ? message : "(no message)");
  fflush (stderr);
  return G_LOG_WRITER_HANDLED;
}

/* Whether a message is below what is logged. GLib 2.74's own test finds a domain in
 * G_MESSAGES_DEBUG as a substring, so "filemond-bpf" there would let the core's
 * "filemond" debug messages through too: the names are matched whole here. */
static gboolean
would_drop (GLogLevelFlags level,
            const char    *domain)
{
  /* as GLib: warnings and above, messages and the program's own levels always go out */
  if ((level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING |
                G_LOG_LEVEL_MESSAGE)) != 0 ||
      (level >> G_LOG_LEVEL_USER_SHIFT) != 0 ||
      g_log_get_debug_enabled ())
    return FALSE;
  for (char **name = debug_domains; name != NULL && *name != NULL; name++)
    if (g_str_equal (*name, "all") || g_strcmp0 (*name, domain) == 0)
      return FALSE;
  return TRUE;
}

static GLogWriterOutput
filemond_log_writer (GLogLevelFlags   level,
                     const GLogField *fields,
                     gsize            n_fields,
                     gpointer         user_data)
{
  const char *domain = NULL;

  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
      domain = fields[i].value;

  if (would_drop (level, domain))
    return G_LOG_WRITER_HANDLED;

  if (to_journal &&
      g_log_writer_journald (level, fields, n_fields, user_data) == G_LOG_WRITER_HANDLED)
    return G_LOG_WRITER_HANDLED;

  return write_stderr (level, fields, n_fields);
}

void
fmd_log_init (gboolean verbose)
{
  const char *names = g_getenv ("G_MESSAGES_DEBUG");

  to_journal = stderr_is_journal_stream ();
  g_clear_pointer (&debug_domains, g_strfreev);
  /* GLib separates the names by spaces; commas are forgiven */
  if (names != NULL)
    debug_domains = g_strsplit_set (names, " ,", -1);
  if (verbose)
    g_log_set_debug_enabled (TRUE);
  g_log_set_writer_func (filemond_log_writer, NULL, NULL);
}

gboolean
fmd_log_to_journal (void)
{
  return to_journal;
}
