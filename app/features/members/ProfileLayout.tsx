import type { ReactNode } from "react";
import { useRouteLoaderData } from "react-router";
import { SideTabLinks } from "~/components/SideTabs";
import type { loader as rootLoader } from "~/root";

/** The sections of /profile: tabs of the page itself, or pages of their own (`to`). */
export type ProfileSection =
  | "profile"
  | "character"
  | "application"
  | "record"
  | "notices"
  | "costume"
  | "devices"
  | "password"
  | "two-factor"
  | "passkeys"
  | "email"
  | "sign-in-methods"
  | "data";

export function profileSections(
  canHaveCharacter: boolean,
  discordSignIn = false,
): { id: ProfileSection; label: string; to?: string }[] {
  return [
    { id: "profile", label: "My Profile" },
    ...(canHaveCharacter ? [{ id: "character" as const, label: "My Character" }] : []),
    { id: "application", label: "My Application" },
    // A page of its own (routes/profile/record.tsx): what the member has sent, paged, each entry openable.
    { id: "record", label: "My Record", to: "/profile/record" },
    // A page of its own (routes/member/notices.tsx): the managers' messages to the member, paged.
    { id: "notices", label: "Notices", to: "/notices" },
    // A page of its own (routes/member/costume.tsx): accepted members' costume photos per upcoming event.
    ...(canHaveCharacter ? [{ id: "costume" as const, label: "Costume photos", to: "/costume" }] : []),
    // A page of its own (routes/profile/devices.tsx): its forms end sessions.
    { id: "devices", label: "Signed-in devices", to: "/profile/devices" },
    // A page of its own (routes/profile/password.tsx): a success may replace the session.
    { id: "password", label: "Password", to: "/profile/password" },
    // A page of its own (routes/profile/two-factor.tsx): enrolment replaces the session.
    { id: "two-factor", label: "Two-factor", to: "/profile/two-factor" },
    // A page of its own (routes/profile/passkeys.tsx): adding one runs the browser's WebAuthn call.
    { id: "passkeys", label: "Passkeys", to: "/profile/passkeys" },
    // A page of its own (routes/profile/email.tsx): the change is confirmed from the new address.
    { id: "email", label: "Email", to: "/profile/email" },
    // Only with sign-in with Discord configured (routes/profile/sign-in-methods.tsx).
    ...(discordSignIn
      ? [{ id: "sign-in-methods" as const, label: "Sign-in methods", to: "/profile/sign-in-methods" }]
      : []),
    // A page of its own (routes/profile/data.tsx): take out a copy of one's data, or delete the account.
    { id: "data", label: "My data", to: "/profile/data" },
  ];
}

/** The profile's heading and section menu, around the open section. */
export function ProfileLayout({
  canHaveCharacter,
  active,
  children,
}: {
  canHaveCharacter: boolean;
  active: ProfileSection;
  children: ReactNode;
}) {
  const all = profileSections(canHaveCharacter, useRouteLoaderData<typeof rootLoader>("root")?.discordSignIn);
  // From a page of its own, the tabs of /profile are addressed there.
  const onOwnPage = Boolean(all.find((s) => s.id === active)?.to);
  const sections = all.map((s) => ({ ...s, to: s.to ?? (onOwnPage ? `/profile?tab=${s.id}` : undefined) }));
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-center text-5xl">Profile</h1>
      <hr className="divider my-6" />
      <div className="grid gap-6 md:grid-cols-[14rem_1fr]">
        {/* Wraps into rows on a phone, so the open section is always in sight; on wider screens
            a column only as tall as its links. */}
        <nav
          aria-label="Profile sections"
          className="panel flex flex-row flex-wrap gap-1 p-2 md:flex-col md:flex-nowrap md:self-start"
        >
          <SideTabLinks tabs={sections} active={active} />
        </nav>
        {children}
      </div>
    </div>
  );
}
