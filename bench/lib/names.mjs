// Sample names, companies and places for the benchmarks' generated contacts (the CSV import and spreadsheet inputs
// share them).
export const FIRST = [
  "James",
  "Mary",
  "Robert",
  "Patricia",
  "John",
  "Jennifer",
  "Michael",
  "Linda",
  "David",
  "Elizabeth",
  "Maria",
  "Daniel",
  "Susan",
  "Anthony",
  "Karen",
];
export const LAST = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
  "Hernandez",
  "Lopez",
  "Wilson",
  "Anderson",
  "Thomas",
];

/** Companies besides the common one the CSV benchmark searches for (the spreadsheet lists it first). */
export const COMMON_COMPANY = "Sunrise Solar";
export const COMPANIES = [
  "Bright Homes",
  "Peak Roofing",
  "Valley Realty",
  "Summit Builders",
  "Coastal Living",
  "Greenfield Farms",
  "Metro Dental",
];
/** City, state, ZIP. */
export const PLACES = [
  ["Austin", "TX", "78701"],
  ["Phoenix", "AZ", "85004"],
  ["Fresno", "CA", "93721"],
  ["Denver", "CO", "80202"],
  ["Tampa", "FL", "33602"],
  ["Reno", "NV", "89501"],
];
