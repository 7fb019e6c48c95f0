import { hashCheaplyForTests } from '../src/core/auth/passwords.ts'

// Loaded before every test file (bunfig.toml). The in-process tests hash passwords and PINs at a
// tiny argon2id cost: they test who may log in, and the suite logs in thousands of times. The
// built executable, which the browser and end-to-end tests run, hashes at the full cost.
hashCheaplyForTests()
