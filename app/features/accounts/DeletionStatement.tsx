import { DELETION_STATEMENT } from "./account-deletion.form";

/** What deleting an account does, for the member ("your") or a manager about a member ("their"). */
export function DeletionStatement({ whose }: { whose: "your" | "their" }) {
  const say = (text: string) =>
    whose === "your" ? text : text.replaceAll("your", "their").replaceAll("you wrote", "they wrote");
  return (
    <div className="flex flex-col gap-3">
      <h3 className="text-xl">What is removed, for good</h3>
      <ul className="list-disc pl-6">
        {DELETION_STATEMENT.removed.map((line) => (
          <li key={line}>{say(line)}</li>
        ))}
      </ul>
      <h3 className="text-xl">What the club keeps, without name or contact</h3>
      <ul className="list-disc pl-6">
        {DELETION_STATEMENT.kept.map((line) => (
          <li key={line}>{say(line)}</li>
        ))}
      </ul>
      <p>
        {whose === "your" ? "You" : "They"} can no longer sign in. The email address is free again: signing up with it
        makes a new, empty account.
      </p>
    </div>
  );
}
