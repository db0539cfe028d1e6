/* fm-error.c: the error domain and its D-Bus names. */
#include "fm-error.h"

#include <gio/gio.h>

#include "fm-names.h"

static const GDBusErrorEntry fm_error_entries[] = {
  { FM_ERROR_FAILED, FM_ERROR_PREFIX "Failed" },
  { FM_ERROR_NOT_AUTHORIZED, FM_ERROR_PREFIX "NotAuthorized" },
  { FM_ERROR_INVALID_ARGS, FM_ERROR_PREFIX "InvalidArgs" },
  { FM_ERROR_ALREADY_RUNNING, FM_ERROR_PREFIX "AlreadyRunning" },
  { FM_ERROR_NOT_RUNNING, FM_ERROR_PREFIX "NotRunning" },
  { FM_ERROR_BACKEND_UNAVAILABLE, FM_ERROR_PREFIX "BackendUnavailable" },
  { FM_ERROR_BACKEND_FAILED, FM_ERROR_PREFIX "BackendFailed" },
  { FM_ERROR_IO, FM_ERROR_PREFIX "Io" },
  { FM_ERROR_PARSE, FM_ERROR_PREFIX "Parse" },
  { FM_ERROR_AUTHORIZATION_UNAVAILABLE, FM_ERROR_PREFIX "AuthorizationUnavailable" },
};

GQuark
fm_error_quark (void)
{
  static gsize quark = 0;

  g_dbus_error_register_error_domain ("filemon-error-quark", &quark,
                                      fm_error_entries,
                                      G_N_ELEMENTS (fm_error_entries));
  return (GQuark) quark;
}
