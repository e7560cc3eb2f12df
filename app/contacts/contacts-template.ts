// The downloadable contacts template. Its own module: the upload dialog (client code) imports the file name, and
// importing it from csv-import.ts would put papaparse in the browser bundle.
export const CONTACTS_TEMPLATE_FILENAME = "contacts_template.csv";

// Sample numbers use the 555 exchange outside 555-01XX: valid in shape (they import as sendable) and,
// apart from a few service numbers such as 555-1212, not assigned to subscribers.
export const CONTACTS_TEMPLATE_CSV =
  "firstName,lastName,email,phone\r\n" +
  "John,Doe,john.doe@example.com,3105552368\r\n" +
  "Jane,Smith,jane.smith@example.com,7135554821\r\n";
