type Social = { socialNetwork?: string; photoNetwork?: string; chatCommunity?: string };

/** A readable name for a configured link: the well-known services by name, others by kind. */
function socialLabel(url: string, fallback: string): string {
  const host = new URL(url).hostname.replace(/^www\./, "");
  if (host.endsWith("facebook.com")) return "Facebook";
  if (host.endsWith("instagram.com")) return "Instagram";
  if (host === "discord.gg" || host.endsWith("discord.com")) return "Discord";
  return fallback;
}

export function SiteFooter({ social }: { social?: Social }) {
  const links = [
    social?.socialNetwork && { href: social.socialNetwork, label: socialLabel(social.socialNetwork, "Social network") },
    social?.photoNetwork && { href: social.photoNetwork, label: socialLabel(social.photoNetwork, "Photos") },
    social?.chatCommunity && { href: social.chatCommunity, label: socialLabel(social.chatCommunity, "Chat community") },
  ].filter((link): link is { href: string; label: string } => Boolean(link));
  return (
    <footer className="mt-16 border-t border-timber bg-soot/80">
      <div className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 py-8 text-center">
        {links.length > 0 ? (
          <nav aria-label="Social">
            <ul className="flex flex-wrap justify-center gap-x-6 gap-y-2">
              {links.map((link) => (
                <li key={link.href}>
                  <a href={link.href} rel="noopener noreferrer" target="_blank">
                    {link.label}
                    <span className="sr-only"> (opens in a new tab)</span>
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <p className="text-sm text-dust">© {new Date().getFullYear()} Hopewell LARP. All rights reserved.</p>
      </div>
    </footer>
  );
}
