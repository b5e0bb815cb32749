"""Live tables: seats and turns, clocks and outages, frames, sockets, pages."""
