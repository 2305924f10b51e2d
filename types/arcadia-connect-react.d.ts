/** `@arcadia-eng/connect-react` ships no types: what app/features/accounts/components/arcadia-connect.client.tsx uses. */
declare module "@arcadia-eng/connect-react" {
  export type ArcadiaConnectStatus =
    "verified" | "rejected" | "timed_out" | "pending" | "no_submit" | "error";
  export type ArcadiaConnectConfig = {
    connectToken: string;
    env?: "sandbox" | "production";
    newCredentialData?: { utilityId?: string | number; zipCode?: string };
    callbacks?: {
      onOpen?: () => void;
      onCredentialsSubmitted?: (data: { utilityCredentialId: string | number }) => void;
      onError?: (data: { error: unknown }) => void;
      onClose?: (data: { status: ArcadiaConnectStatus }) => void;
    };
  };
  export function useConnect(): [
    { loading: boolean; error: Error | null | undefined },
    (config: ArcadiaConnectConfig) => Promise<void>,
  ];
}
