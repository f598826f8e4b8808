import { redirect } from "react-router";

/** /location is a common guess for the location page; send it to the one address. */
export function loader() {
  return redirect("/locations", 301);
}
