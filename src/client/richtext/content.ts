/** Whether editor HTML shows anything (text or an image): the form's "required" check; the server checks again. */
export const hasRichContent = (html: string | undefined | null) =>
  !!html &&
  (/<img\s/i.test(html) ||
    !!html
      .replace(/<[^>]*>/g, "")
      .replace(/&nbsp;/g, " ")
      .trim());
