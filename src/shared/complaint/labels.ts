/**
 * How a complaint is named to people, by its kind (COMPLAINT_TYPES: 申诉 an author's or
 * teacher's about the own work, 投诉 anyone's about another work): one function for the
 * history, the step notices, the mails and the to-do items, so a 投诉 is never called 申诉.
 */
import { COMPLAINT_TYPE_NAMES, type ComplaintType } from "./states";

/** 申诉 or 投诉 (an unknown kind: 申诉/投诉). */
export const complaintKind = (type: string): string => COMPLAINT_TYPE_NAMES[type as ComplaintType] ?? "申诉/投诉";

/** 「投诉 #3」. */
export const complaintLabel = (c: { type: string; id: number }): string => `${complaintKind(c.type)} #${c.id}`;

/** Who filed it: 申诉人 or 投诉人. */
export const filerWord = (type: string): string => `${complaintKind(type)}人`;
