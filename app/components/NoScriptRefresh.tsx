/**
 * Takes a browser without JavaScript on to `to` after `seconds`, as the page's own timer does
 * when scripts run. Inside <noscript> the browser reads the refresh only when scripts are off:
 * a refresh read alongside the timer would load the next page a second time, and could cut off
 * whatever page the member had opened in those seconds.
 */
export function NoScriptRefresh({ seconds, to }: { seconds: number; to: string }) {
  return (
    <noscript>
      <meta httpEquiv="refresh" content={`${seconds};url=${to}`} />
    </noscript>
  );
}
