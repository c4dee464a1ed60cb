const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A moment as the reader's locale writes it, to the second (deliveries are seconds apart). */
export const formatTime = (iso: string) => timeFormat.format(new Date(iso));
