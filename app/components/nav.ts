/** SPEC §2: the twelve sidebar items in order, and the header title per route. */
export const NAV_ITEMS = [
  { to: "/", label: "Dashboard", icon: "▦" },
  { to: "/campaigns", label: "Campaigns", icon: "➤" },
  { to: "/messages", label: "Messages", icon: "✉" },
  { to: "/contacts", label: "Contacts", icon: "☺" },
  { to: "/testing", label: "Testing", icon: "⚗" },
  { to: "/idea-generator", label: "Idea Generator", icon: "✦" },
  { to: "/auto-responder", label: "Auto-Responder", icon: "↺" },
  { to: "/smart-alerts", label: "Smart Alerts", icon: "⚑" },
  { to: "/test-smart-alerts", label: "Test Alerts", icon: "✓" },
  { to: "/analytics", label: "Analytics", icon: "▤" },
  { to: "/user-analytics", label: "User Analytics", icon: "☷" },
  { to: "/knowledge-base", label: "Knowledge Base", icon: "?" },
] as const;

const TITLES: Record<string, string> = {
  "/": "Dashboard",
  "/compose": "Compose Message",
  "/campaigns": "Campaigns",
  "/contacts": "Contacts",
  "/templates": "Templates",
  "/auto-responder": "Auto-Responder",
  "/analytics": "Analytics",
  "/settings": "Settings",
};

/** The header title: exact per SPEC for the mapped routes (and their sub-pages); anything else reads Dashboard. */
export function headerTitle(pathname: string): string {
  const top = "/" + (pathname.split("/")[1] ?? "");
  return TITLES[pathname] ?? TITLES[top] ?? "Dashboard";
}

export function isActive(itemTo: string, pathname: string) {
  return itemTo === "/" ? pathname === "/" : pathname === itemTo || pathname.startsWith(itemTo + "/");
}
