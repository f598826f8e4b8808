/**
 * "Sign in with a passkey" on /auth: no email, password or CAPTCHA; the browser offers the
 * passkeys it holds for this site. The sign-in page's script makes the button work
 * (passkey-sign-in.ts); without JavaScript the button posts to /auth, which answers that
 * passkeys need it (routes/auth/auth.tsx), so the button is never a dead end.
 */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  return (
    <form method="post" className="flex flex-col gap-3" data-passkey-sign-in={redirectTo}>
      <input type="hidden" name="intent" value="passkey" />
      <button type="submit" className="btn btn-secondary w-full disabled:cursor-not-allowed disabled:opacity-60">
        Sign in with a passkey
      </button>
    </form>
  );
}
