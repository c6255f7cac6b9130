"""`rulegen preview FILE`: the offering's rules document, sign and findings in a browser, refreshed at each save.

  app        the Starlette app: the page, its server-sent events, the shipped fonts the documents use
  templates  the page and the part of it each refresh replaces; preview.js, the page's only script

The work of a refresh (validate, math, the documents' HTML) is the build layer's (`rulegen.assemble.preview`).
"""
