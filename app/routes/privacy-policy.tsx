import type { MetaFunction } from "@remix-run/node";
import { PublicPage } from "~/ui/brand";
import { DESCRIPTIONS, description } from "~/features/public/seo";

export default function PrivacyPolicy() {
  return (
    <PublicPage wide>
      <article className="card prose">
        <h1>Privacy Policy</h1>
        <p className="muted">Last updated August 16th, 2021</p>
        <p>
          This policy explains what information EnergyOps collects when your organization uses our
          energy-management service, why we collect it, and the choices you have. It applies to our web
          application, the emails we send and the free bill health check.
        </p>
        <h2>Information we collect</h2>
        <ul>
          <li>
            <strong>Account information</strong>: your name, work email address, your organization, and the
            locations you may access.
          </li>
          <li>
            <strong>Utility data</strong>: with your authorization, bills, account numbers, usage and rate
            information we obtain from your utility through our utility-data provider. Utility passwords you
            enter are passed to that provider and are not stored by us.
          </li>
          <li>
            <strong>Device data</strong>: readings and settings of the smart thermostats connected to your
            locations, such as temperatures, setpoints, modes, schedules and connectivity.
          </li>
          <li>
            <strong>Usage of the service</strong>: pages visited, actions taken and technical logs (time,
            page, status and duration of each request). We do not log passwords, login codes or links.
          </li>
        </ul>
        <h2>How we use it</h2>
        <ul>
          <li>
            To show your bills, usage, thermostats and reports, and to carry out the changes you ask for.
          </li>
          <li>
            To detect bill issues and device problems and tell you about them, as set in your preferences.
          </li>
          <li>To run grid-services programs your organization has joined.</li>
          <li>To keep the service secure, investigate problems and improve it.</li>
        </ul>
        <h2>Sharing</h2>
        <p>
          We do not sell personal information. We share it only with service providers who process it for us
          under contract (hosting, email delivery, our utility-data provider, thermostat vendors), with your
          utility or grid operator when your organization takes part in a program, and when the law requires
          it.
        </p>
        <h2>Retention</h2>
        <p>
          We keep account and utility data while your organization is a customer and for up to 24 months
          afterwards, unless the law requires longer. Technical logs are kept for 90 days.
        </p>
        <h2>Security</h2>
        <p>
          Data is encrypted in transit, access is limited to the people who need it, staff access to a
          customer account is recorded with a reason, and sign-in attempts are rate-limited.
        </p>
        <h2>Your choices</h2>
        <p>
          You can change which emails you receive under Manage account, ask your administrator to change which
          locations you see, and ask us for a copy of your information or for its deletion.
        </p>
        <h2>Contact</h2>
        <p>
          Questions about this policy: write to our support team from the Help link in the application, or to
          the support address shown on any error page.
        </p>
      </article>
    </PublicPage>
  );
}

export const meta: MetaFunction = () => [
  { title: "Privacy Policy · EnergyOps" },
  description(DESCRIPTIONS.privacyPolicy),
];
