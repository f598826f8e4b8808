// Being built: issue 53 (messages to members).
export default function Placeholder() {
  return null;
}
