"""What every page and every API answer shares: the error body and the API's schema (:mod:`.api`),
the one JSON reader (:mod:`.jsonreader`, the API's parser in :mod:`.parsers`), the bounds on
request bodies (:mod:`.uploads`), the pages of API lists (:mod:`.pagination`), and sign-ins with
their limit and the API's tokens (:mod:`.auth`)."""
