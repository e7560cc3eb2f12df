#!/usr/bin/env node
// npm run user:create -- --email a@b.c --password secret123 --role user|superuser --first Ann --last Lee [--remote]
import { parseArgs } from "./lib/d1.mjs";
import { createUser, validateUserInput } from "./lib/users.mjs";

const args = parseArgs(process.argv.slice(2));
const input = {
  email: args.email,
  password: args.password,
  role: args.role ?? "user",
  first: args.first,
  last: args.last,
};
const errors = validateUserInput(input);
if (errors.length) {
  console.error("Cannot create the user:\n  " + errors.join("\n  "));
  console.error(
    "Usage: npm run user:create -- --email … --password … --role user|superuser --first … --last … [--remote]",
  );
  process.exit(2);
}
try {
  const { id } = await createUser(input, { remote: Boolean(args.remote), persistTo: args["persist-to"] });
  console.log(`Created ${input.role} ${input.email} (id ${id}) in the ${args.remote ? "remote" : "local"} database.`);
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
