/**
 * A member's costume-photo standing for an event, as the event-day sheet shows it. Costume
 * photos (issue 16, part 1) are being built apart: until they are, every attendee reads
 * "not available yet". Wire the real statuses in here, one query for all the given members.
 */
export type CostumePhotoStatus = "not available yet" | "not sent" | "waiting for review" | "changes asked" | "approved";

export async function costumePhotoStatuses(_eventId: string, memberIds: string[]): Promise<Map<string, CostumePhotoStatus>> {
  return new Map(memberIds.map((id) => [id, "not available yet" as const]));
}
