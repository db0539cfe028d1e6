/* fmv-live-calls.c: the methods the viewer calls on filemond besides OpenStream: Start
 * and Stop. Each carries ALLOW_INTERACTIVE_AUTHORIZATION, so polkit may ask the
 * session's agent for a password, and waits without a timeout while it does. */
#include "config.h"

#include "fmv-live-private.h"

static gboolean
check_proxy (FmvLive  *self,
             GTask    *task)
{
  if (fmv_live_get_proxy (self) != NULL)
    return TRUE;
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED, "filemond is not running");
  return FALSE;
}

static void
call_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  GVariant *reply;

  reply = g_dbus_proxy_call_finish (G_DBUS_PROXY (source), result, &error);
  if (reply == NULL)
    {
      g_dbus_error_strip_remote_error (error);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_pointer (task, reply, (GDestroyNotify) g_variant_unref);
}

static void
call (FmvLive             *self,
      const char          *method,
      GVariant            *parameters,
      gpointer             tag,
      GCancellable        *cancellable,
      GAsyncReadyCallback  callback,
      gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, tag);
  if (!check_proxy (self, task))
    {
      g_variant_unref (g_variant_ref_sink (parameters));
      return;
    }
  /* No timeout: an administrator may take a while to type a password. */
  g_dbus_proxy_call (G_DBUS_PROXY (fmv_live_get_proxy (self)), method, parameters,
                     G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION, G_MAXINT, cancellable,
                     call_done_cb, g_steal_pointer (&task));
}

void
fmv_live_start_async (FmvLive             *self,
                      GVariant            *options,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_return_if_fail (FMV_IS_LIVE (self));
  g_return_if_fail (options != NULL);

  call (self, "Start", g_variant_new ("(@a{sv})", options), fmv_live_start_async,
        cancellable, callback, user_data);
}

gboolean
fmv_live_start_finish (FmvLive       *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_autoptr(GVariant) reply = g_task_propagate_pointer (G_TASK (result), error);

  return reply != NULL;
}

void
fmv_live_stop_async (FmvLive             *self,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_return_if_fail (FMV_IS_LIVE (self));

  call (self, "Stop", g_variant_new ("()"), fmv_live_stop_async, cancellable, callback, user_data);
}

gboolean
fmv_live_stop_finish (FmvLive       *self,
                      GAsyncResult  *result,
                      GError       **error)
{
  g_autoptr(GVariant) reply = g_task_propagate_pointer (G_TASK (result), error);

  return reply != NULL;
}
