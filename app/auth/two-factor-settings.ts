/** The org_settings key of "require two-factor for superusers" ("1" = on; absent = off). */
export const REQUIRE_SUPERUSER_2FA_KEY = "requireSuperuserTwoFactor";
