import { Form, useFetcher } from "@remix-run/react";
import { BellRing } from "lucide-react";
import { useEffect, useState } from "react";
import { Badge, Button, Card, Checkbox } from "~/components/ui";
import { useHydrated } from "~/lib/use-hydrated";

export type PushSettingsView = {
  enabled: boolean;
  publicKey: string | null;
  hotLeads: boolean;
  replies: boolean;
  devices: { id: number; device: string; since: string }[];
};

type DeviceState = "unsupported" | "denied" | "off" | "on" | "working";

/** The browser's own subscription, if this browser has push and a service worker (only after hydration). */
async function currentSubscription() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) return null;
  const reg = await navigator.serviceWorker.getRegistration("/");
  return (await reg?.pushManager.getSubscription()) ?? null;
}

/** What this browser can do and has done about push. */
async function deviceState(): Promise<DeviceState> {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window))
    return "unsupported";
  if (Notification.permission === "denied") return "denied";
  return (await currentSubscription()) ? "on" : "off";
}

/**
 * The account screen's Notifications card (decision 049): what is pushed to the user's phones — a plain form, so it
 * saves without JavaScript — and, with JavaScript, turning push on or off for this device (the browser's permission
 * prompt, PushManager.subscribe with the server's VAPID key, the subscription posted to /account/push).
 */
export function PushSettingsCard({ push }: { push: PushSettingsView }) {
  const hydrated = useHydrated();
  const fetcher = useFetcher();
  const [state, setState] = useState<DeviceState>("off");
  useEffect(() => {
    if (!push.enabled) return;
    let live = true;
    void deviceState().then((s) => live && setState(s));
    return () => {
      live = false;
    };
  }, [push.enabled, fetcher.state]);

  async function turnOn() {
    setState("working");
    try {
      if ((await Notification.requestPermission()) !== "granted") return setState("denied");
      const reg = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: push.publicKey! });
      const json = sub.toJSON();
      fetcher.submit(
        { intent: "subscribe", endpoint: sub.endpoint, p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" },
        { method: "post", action: "/account/push" },
      );
      setState("on");
    } catch {
      setState("off");
    }
  }

  async function turnOff() {
    setState("working");
    const sub = await currentSubscription();
    if (sub) {
      fetcher.submit({ intent: "unsubscribe", endpoint: sub.endpoint }, { method: "post", action: "/account/push" });
      await sub.unsubscribe().catch(() => false);
    }
    setState("off");
  }

  return (
    <Card
      title="Notifications"
      description="Hot leads and replies in your queue, on your phone. Install Helio from your browser's menu (Add to Home Screen), then turn notifications on there."
    >
      <div className="space-y-4" data-testid="push-settings">
        {push.enabled ? (
          <p className="text-sm" data-testid="push-devices">
            {push.devices.length
              ? `On for ${push.devices.length} device${push.devices.length === 1 ? "" : "s"}: ${push.devices.map((d) => d.device).join(", ")}.`
              : "No device gets notifications yet."}
          </p>
        ) : (
          <p className="text-sm text-fg-muted" data-testid="push-off">
            <Badge tone="neutral">Off</Badge> Push notifications are not set up on this server (VAPID keys, see the
            README). Hot-lead alerts are texted to the phone on your profile instead.
          </p>
        )}
        {hydrated && push.enabled ? (
          <div className="flex flex-wrap items-center gap-3" data-testid="push-device">
            {state === "on" ? (
              <Button variant="outline" onClick={turnOff}>
                Turn off on this device
              </Button>
            ) : state === "unsupported" ? (
              <span className="text-sm text-fg-muted">This browser cannot receive push notifications.</span>
            ) : state === "denied" ? (
              <span className="text-sm text-fg-muted">
                Notifications are blocked for Helio in this browser&apos;s settings.
              </span>
            ) : (
              <Button icon={BellRing} onClick={turnOn} disabled={state === "working"}>
                Turn on for this device
              </Button>
            )}
          </div>
        ) : null}
        <Form method="post" action="/account/push" className="space-y-2" data-testid="push-preferences">
          <input type="hidden" name="intent" value="preferences" />
          <Checkbox name="hotLeads" defaultChecked={push.hotLeads} label="Hot-lead alerts for my contacts" />
          <Checkbox name="replies" defaultChecked={push.replies} label="Replies in my queue" />
          <Button type="submit" variant="outline">
            Save notification settings
          </Button>
        </Form>
      </div>
    </Card>
  );
}
