"""The regulator's desk (issue 25): analysts upload filings, the desk verifies each in full as `rulegen verify`
does, records it in the register, archives its bytes by SHA-256, and keeps a queue, notes and a supervisor's
decision, every action an append-only event.

  store    the desk's tables beside the register's (users, sessions, filings, their files, events)
  intake   what an upload may be (names, sizes, a zip), the content-addressed archive, verification and recording
  app      the Starlette app: server-rendered pages that work without JavaScript, and the JSON API
"""
