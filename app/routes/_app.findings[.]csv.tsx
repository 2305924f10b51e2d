import { findingsCsvLoader } from "~/features/findings/findings-csv.server";

/** /findings.csv with the page's query: the ledger's rows and columns as shown (findings-csv.server.ts). */
export const loader = findingsCsvLoader;
