import { useNavigation, type Navigation } from "@remix-run/react";
import {
  createContext,
  useContext,
  useEffect,
  useRef,
  type ButtonHTMLAttributes,
  type MouseEvent,
} from "react";

/**
 * A visible answer to every click, before and after hydration.
 *
 * On a slow network the JavaScript arrives seconds after the page: until then a form is a plain form post and a
 * link a plain link, and nothing on screen said the click was taken. The pieces:
 * - `SubmitButton` renders `data-pending-label` (what it reads while its request is under way) and a polite
 *   status region next to it. Its pending look is CSS alone (app.css: `[aria-busy="true"][data-pending-label]`
 *   hides the label and shows the pending one), so the same markup serves both sides below;
 * - before hydration, `PENDING_SCRIPT` (inline, under the page's nonce) marks the pressed `SubmitButton`
 *   `aria-busy`, writes its pending label to its status region and refuses a second submission of the same form;
 *   a same-site link being followed gets `aria-busy` and the page's status region says "Loading…";
 * - after hydration, `SubmitButton` follows Remix's navigation, or the fetcher its forms submit through
 *   (`SubmissionSource`, or a `pending` its caller derives), and `NavigationPending` marks the link whose click
 *   started a navigation.
 * The script acts only on what React did not handle (`defaultPrevented`): once Remix runs a form or a link, the
 * script leaves it to React.
 */

/** What a pending link's page status says, before and after hydration. */
export const LOADING_MESSAGE = "Loading…";

/**
 * ES5 on purpose (no build step touches it), about 900 bytes. The listeners are on `window`, bubbling, so they
 * run after React's (which listens on the document): `defaultPrevented` then means Remix took the submission.
 * Status text is written with `textContent` into regions React renders empty with `dangerouslySetInnerHTML`,
 * which hydration does not compare: a status written before hydration is no hydration mismatch.
 */
export const PENDING_SCRIPT = `(function(w,d){function b(e){return e.button||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey}
w.addEventListener("submit",function(e){var f=e.target,s=e.submitter;if(!f||f.nodeName!=="FORM")return;if(f.hasAttribute("data-pending")){e.preventDefault();return}
if(e.defaultPrevented||!s||!s.hasAttribute("data-pending-label"))return;var t=s.getAttribute("formtarget")||f.getAttribute("target");if(t&&t!=="_self")return;
f.setAttribute("data-pending","");s.setAttribute("aria-busy","true");var r=s.nextElementSibling;if(r&&r.hasAttribute("data-pending-status"))r.textContent=s.getAttribute("data-pending-label")});
w.addEventListener("click",function(e){if(e.defaultPrevented||b(e)||!e.target.closest)return;var a=e.target.closest("a[href]");
if(!a||a.origin!==location.origin||a.hasAttribute("download")||(a.target&&a.target!=="_self")||/\\.\\w+$/.test(a.pathname))return;
if(a.hash&&a.pathname===location.pathname&&a.search===location.search)return;a.setAttribute("aria-busy","true");var r=d.getElementById("nav-status");if(r)r.textContent=${JSON.stringify(LOADING_MESSAGE)}});
w.addEventListener("pageshow",function(e){if(!e.persisted)return;[].forEach.call(d.querySelectorAll("[data-pending],[aria-busy]"),function(x){x.removeAttribute("data-pending");x.removeAttribute("aria-busy")});
[].forEach.call(d.querySelectorAll("[data-pending-status],#nav-status"),function(x){x.textContent=""})})})(window,document)`;

type Entries = Iterable<[string, FormDataEntryValue]>;

/**
 * A comparable spelling of a form's entries: text values as they are, files by name, sorted. Sorted because
 * Remix builds its FormData with the pressed button's entry where the button sits in the form, while the
 * button's own copy can only add it at the end.
 */
function entryList(entries: Entries) {
  return [...entries]
    .map(([k, v]) => JSON.stringify([k, typeof v === "string" ? v : `file:${v.name}`]))
    .sort();
}

/**
 * Whether the navigation under way submits exactly these entries (this form, pressed with this button): each
 * form carries its own submission id (ADR 0010), so two forms to the same action still differ.
 */
export function isSameSubmission(navigating: Entries | undefined, mine: Entries | undefined) {
  if (!navigating || !mine) return false;
  const a = entryList(navigating);
  const b = entryList(mine);
  return a.length === b.length && a.every((entry, i) => entry === b[i]);
}

/** A submission as Remix reports it: its navigation, or a fetcher (whose `formData` is set while it submits). */
type Submission = Pick<Navigation, "state"> & { formData?: FormData };

/**
 * The fetcher that the forms inside carry their submissions through (the shell's connect dialog): a fetcher's
 * submission is no navigation, so without it a button there would never read as pending.
 */
export const SubmissionSource = createContext<Submission | null>(null);

function submittingWith(navigation: Submission, button: HTMLButtonElement | null) {
  if (navigation.state === "idle" || !navigation.formData || !button?.form) return false;
  // The submitter's own entry is added by hand: a button disabled while busy would be left out of FormData.
  const mine = new FormData(button.form);
  if (button.name) mine.append(button.name, button.value);
  return isSameSubmission(navigation.formData.entries(), mine.entries());
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type SubmitButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type"> & {
  /** What the button reads while its request is under way ("Saving…"). */
  pendingLabel?: string;
  /** Pending as the caller knows it (a fetcher's state); by default: Remix is submitting this very form. */
  pending?: boolean;
};

/**
 * The submit button of every form. While its request is under way it reads `pendingLabel`, is `aria-busy` and its
 * status region says so; a second press sends nothing. It stays enabled (a disabled button drops its own
 * name and value from the form, and focus would leave it).
 */
export function SubmitButton({
  pendingLabel = "Sending…",
  pending,
  children,
  onClick,
  ...rest
}: SubmitButtonProps) {
  const navigation = useNavigation();
  const source = useContext(SubmissionSource);
  const ref = useRef<HTMLButtonElement>(null);
  const busy = pending ?? submittingWith(source ?? navigation, ref.current);
  const guard = (event: MouseEvent<HTMLButtonElement>) => {
    if (busy) event.preventDefault();
    else onClick?.(event);
  };
  return (
    <>
      <button
        {...rest}
        ref={ref}
        type="submit"
        aria-busy={busy || undefined}
        data-pending-label={pendingLabel}
        onClick={guard}
      >
        <span className="submit-label">{children}</span>
      </button>
      <span
        className="visually-hidden"
        role="status"
        data-pending-status=""
        dangerouslySetInnerHTML={{ __html: busy ? escapeHtml(pendingLabel) : "" }}
      />
    </>
  );
}

/**
 * The page's status region for navigations, and `aria-busy` on the link whose click started the one under
 * way (after hydration; `PENDING_SCRIPT` does both before). A click counts when a navigation starts within a
 * second of it: a link whose click opened a dialog is not marked by a later navigation.
 */
export function NavigationPending() {
  const navigation = useNavigation();
  const clicked = useRef<{ link: HTMLAnchorElement; at: number } | null>(null);
  const loading = navigation.state === "loading" && !navigation.formData;
  useEffect(() => {
    const onClick = (event: globalThis.MouseEvent) => {
      const target = event.target;
      if (!event.defaultPrevented || !(target instanceof Element)) return;
      const link = target.closest("a[href]");
      if (link instanceof HTMLAnchorElement) clicked.current = { link, at: performance.now() };
    };
    window.addEventListener("click", onClick);
    return () => window.removeEventListener("click", onClick);
  }, []);
  useEffect(() => {
    const last = clicked.current;
    if (!last) return;
    if (loading && performance.now() - last.at < 1000) last.link.setAttribute("aria-busy", "true");
    else if (!loading) {
      last.link.removeAttribute("aria-busy");
      clicked.current = null;
    }
  }, [loading]);
  return (
    <p
      id="nav-status"
      className="visually-hidden"
      role="status"
      dangerouslySetInnerHTML={{ __html: loading ? LOADING_MESSAGE : "" }}
    />
  );
}
