/**
 * Masking of personal contact numbers (个人信息保护法): replies show a phone as 138****5678
 * unless the caller is the person or reveals it through an audited route. One function for
 * both sides; the server masks, the browser only recognises a masked value.
 */

import { Type, type Static } from "typebox";

/** Four stars: the part of a number that is hidden. */
export const MASK = "****";

/**
 * The masked form of a phone number: a mobile 13812345678 → 138****5678; a landline
 * 010-12345678 → 010****5678; a short number keeps less (12345 → 1****5, up to 4 characters
 * nothing). null, undefined and blank stay as they are; an already masked value is returned unchanged.
 */
export function maskPhone<T extends string | null | undefined>(phone: T): T {
  if (phone === null || phone === undefined) return phone;
  const s = phone.trim();
  if (!s || isMaskedPhone(s)) return phone;
  const n = [...s];
  if (n.length <= 4) return MASK as T;
  if (n.length <= 7) return `${n[0]}${MASK}${n.slice(-1).join("")}` as T;
  return `${n.slice(0, 3).join("")}${MASK}${n.slice(-4).join("")}` as T;
}

/** Whether a value is a masked phone (as replies send it), not a number someone typed. */
export const isMaskedPhone = (s: string | null | undefined): boolean => !!s && s.includes(MASK);

/** The reply of a reveal route (GET …/phone): the number in full, null when none is stored. */
export const RevealedPhone = Type.Object({
  id: Type.Integer(),
  phone: Type.Union([Type.String(), Type.Null()]),
});
export type RevealedPhone = Static<typeof RevealedPhone>;

/** Reveals a minute per caller (one bucket over every reveal route): enough to call a class back, too few to harvest a school. */
export const PHONE_REVEALS_PER_MINUTE = 30;
