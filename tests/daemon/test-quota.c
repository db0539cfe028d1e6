/* test-quota.c: slots per user with a reserve for root: one user cannot take them all,
 * users together leave root its reserve, root is bound by the total only, and a slot
 * given back can be taken again. */
#include <string.h>

#include <gio/gio.h>

#include "filemond-quota.h"

#define ALICE 1000
#define BOB 1001

static void
assert_refused (FmdQuota   *quota,
                guint32     uid,
                const char *why)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (fmd_quota_take (quota, uid, &error));
  g_assert_error (error, G_DBUS_ERROR, G_DBUS_ERROR_LIMITS_EXCEEDED);
  g_assert_nonnull (strstr (error->message, why));
}

static void
test_one_user_takes_its_share_only (void)
{
  g_autoptr(FmdQuota) quota = fmd_quota_new ("streams", 32, 8, 8);

  for (guint i = 0; i < 8; i++)
    g_assert_true (fmd_quota_take (quota, ALICE, NULL));
  assert_refused (quota, ALICE, "the most one user may");
  /* another user is not bound by alice's share */
  g_assert_true (fmd_quota_take (quota, BOB, NULL));
  g_assert_cmpuint (fmd_quota_get_n_taken_by (quota, ALICE), ==, 8);
  g_assert_cmpuint (fmd_quota_get_n_taken (quota), ==, 9);
}

static void
test_users_leave_root_its_reserve (void)
{
  g_autoptr(FmdQuota) quota = fmd_quota_new ("saves", 16, 4, 4);

  for (guint32 uid = ALICE; uid < ALICE + 3; uid++)
    for (guint i = 0; i < 4; i++)
      g_assert_true (fmd_quota_take (quota, uid, NULL));
  assert_refused (quota, ALICE + 3, "kept for root");
  for (guint i = 0; i < 4; i++)
    g_assert_true (fmd_quota_take (quota, 0, NULL));
  assert_refused (quota, 0, "all 16 saves are in use");

  /* a user's slot given back is free for another user */
  fmd_quota_release (quota, ALICE);
  g_assert_true (fmd_quota_take (quota, ALICE + 3, NULL));
  assert_refused (quota, ALICE + 4, "all 16 saves are in use");
}

static void
test_root_is_bound_by_the_total_only (void)
{
  g_autoptr(FmdQuota) quota = fmd_quota_new ("subscribers", 10, 2, 3);

  for (guint i = 0; i < 10; i++)
    g_assert_true (fmd_quota_take (quota, 0, NULL));
  assert_refused (quota, 0, "all 10 subscribers are in use");
  assert_refused (quota, ALICE, "all 10 subscribers are in use");
  for (guint i = 0; i < 10; i++)
    fmd_quota_release (quota, 0);
  g_assert_cmpuint (fmd_quota_get_n_taken (quota), ==, 0);
  g_assert_cmpuint (fmd_quota_get_n_taken_by (quota, 0), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/quota/one-user-takes-its-share-only", test_one_user_takes_its_share_only);
  g_test_add_func ("/quota/users-leave-root-its-reserve", test_users_leave_root_its_reserve);
  g_test_add_func ("/quota/root-is-bound-by-the-total-only", test_root_is_bound_by_the_total_only);

  return g_test_run ();
}
