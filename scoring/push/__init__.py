"""Push: every change of a tournament's tables numbered as a live event, kept, published on
Redis and streamed to the live screens (README, "Push"). It sits below recording, which
announces through it."""
