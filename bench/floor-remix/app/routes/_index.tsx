import { bodyChildren } from "../privacy.server";

/** The privacy page's body. The loader makes Remix write its hydration data, as every product page has some. */
export const loader = () => ({ page: "privacy" });

export default function Privacy() {
  return <>{bodyChildren}</>;
}
