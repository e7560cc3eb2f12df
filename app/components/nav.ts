import {
  AtSign,
  Bell,
  BellRing,
  BookOpen,
  Bot,
  ChartColumn,
  Building2,
  CircleUser,
  FlaskConical,
  MessagesSquare,
  ShieldCheck,
  LayoutDashboard,
  Lightbulb,
  MessageSquare,
  Send,
  TestTube,
  UserCheck,
  Users,
  Webhook,
  Zap,
  type LucideIcon,
  KeyRound,
  CalendarClock,
  SquareKanban,
} from "lucide-react";

/** SPEC §2: the twelve sidebar items in order, and the header title per route. */
export const NAV_ITEMS: readonly { to: string; label: string; icon: LucideIcon }[] = [
  { to: "/", label: "Dashboard", icon: LayoutDashboard },
  { to: "/campaigns", label: "Campaigns", icon: Send },
  { to: "/messages", label: "Messages", icon: MessageSquare },
  { to: "/contacts", label: "Contacts", icon: Users },
  { to: "/testing", label: "Testing", icon: FlaskConical },
  { to: "/idea-generator", label: "Idea Generator", icon: Lightbulb },
  { to: "/auto-responder", label: "Auto-Responder", icon: Bot },
  { to: "/smart-alerts", label: "Smart Alerts", icon: BellRing },
  { to: "/test-smart-alerts", label: "Test Alerts", icon: TestTube },
  { to: "/analytics", label: "Analytics", icon: ChartColumn },
  { to: "/user-analytics", label: "User Analytics", icon: UserCheck },
  { to: "/knowledge-base", label: "Knowledge Base", icon: BookOpen },
];

/**
 * Below SPEC §2's twelve, a second group for the screens people otherwise reach only by URL (issue 24): the
 * conversation inbox, the alerts list, and the account; compliance and organisation settings for superusers.
 */
export const MORE_NAV_ITEMS: readonly { to: string; label: string; icon: LucideIcon; superuserOnly?: boolean }[] = [
  { to: "/messages/conversations", label: "Conversations", icon: MessagesSquare },
  // Where each sale stands (issue 28, decision 053): the board by stage.
  { to: "/contacts/pipeline", label: "Pipeline", icon: SquareKanban },
  // Internal notes that @mention the signed-in user (decision 047).
  { to: "/messages/mentions", label: "Mentions", icon: AtSign },
  { to: "/alerts", label: "Alerts", icon: Bell },
  { to: "/compliance", label: "Compliance", icon: ShieldCheck, superuserOnly: true },
  { to: "/organisation", label: "Organisation", icon: Building2, superuserOnly: true },
  // Speed to lead (issue 26): which lead starts which sequence.
  { to: "/lead-triggers", label: "Lead triggers", icon: Zap, superuserOnly: true },
  { to: "/pipeline-stages", label: "Pipeline stages", icon: SquareKanban, superuserOnly: true },
  // API keys (issue 26, decision 035): everyone's own; a superuser sees all of them there.
  { to: "/account/api-keys", label: "API keys", icon: KeyRound },
  // A closer's weekly hours, which the login-free booking page offers (decision 058).
  { to: "/account/availability", label: "Booking hours", icon: CalendarClock },
  // Outbound webhooks (issue 26, decision 036): subscriptions and their delivery logs.
  { to: "/settings/webhooks", label: "Webhooks", icon: Webhook, superuserOnly: true },
  { to: "/account", label: "Account", icon: CircleUser },
];

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
  // A screen with its own entry (Conversations under /messages) lights that one, not its parent's.
  if (
    MORE_NAV_ITEMS.some(
      (m) => m.to !== itemTo && m.to.startsWith(itemTo + "/") && (pathname === m.to || pathname.startsWith(m.to + "/")),
    )
  )
    return false;
  return itemTo === "/" ? pathname === "/" : pathname === itemTo || pathname.startsWith(itemTo + "/");
}
