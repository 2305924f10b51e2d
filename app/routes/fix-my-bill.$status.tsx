import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { feedbackHeading } from "~/features/bills/feedback";
import { PublicPage } from "~/ui/brand";
import { NO_SCRIPTS } from "~/ui/static-page";

/** Opened from an email: complete without JavaScript, so it ships none of the app's (issue 17). */
export const handle = NO_SCRIPTS;

/** Public bill feedback confirmation (the target of the bill-issue email answers). */
export function loader({ params }: LoaderFunctionArgs) {
  const status = params.status === "action_requested" ? "action_requested" : "dismissed";
  return { status, heading: feedbackHeading(status) };
}

export default function FixMyBill() {
  const { status, heading } = useLoaderData<typeof loader>();
  return (
    <PublicPage>
      <div className="stack">
        <h1>{heading}</h1>
        <p>
          {status === "action_requested"
            ? "Thank you for letting us know. Our team is looking into this bill and will respond by email within 1 business day."
            : "Thank you for confirming. No further action is needed on this bill."}
        </p>
        <Link to="/" className="btn">
          Visit Dashboard
        </Link>
      </div>
    </PublicPage>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.heading ?? "Bill feedback received"} · EnergyOps` },
];
