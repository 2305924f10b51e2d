import { createContext, useContext } from "react";

export const NonceContext = createContext("");
export const useNonce = () => useContext(NonceContext);

/** The stack trace of a server error, given to the error fallback only when the viewer is staff. */
export const StaffErrorContext = createContext<string | null>(null);
