/** The product's name, as the web pages write it (emails, and the supplier a findings list leaves out). */
export const BRAND = "EnergyOps";
