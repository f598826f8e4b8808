import type { Route } from "./+types/account-deleted";

/** Where a member lands once their account is deleted: they are signed out. */
export default function AccountDeleted() {
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-10">
      <h1 className="text-center text-5xl">Account deleted</h1>
      <hr className="divider my-6" />
      <section className="panel flex flex-col gap-3">
        <p>Your account has been deleted and you are signed out. Your personal data and files are removed.</p>
        <p>
          The club keeps attendance and payment records and its audit log without your name or contact, and the letters
          you wrote to other characters stay signed with your character's name only.
        </p>
        <p>
          You are welcome back at any time: <a href="/auth">sign up</a> again with any address, this one included.
        </p>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Account deleted · Hopewell" }];
