/**
 * The bill feedback confirmation heading (/fix-my-bill/{status}). A leaf module: the page is opened from an
 * email, and importing the bills rules would bring zod and the date helpers to its JavaScript.
 */
export const feedbackHeading = (status: string) =>
  status === "action_requested" ? "Help is on the way!" : "Bill feedback received";
