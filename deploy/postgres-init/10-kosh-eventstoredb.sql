-- Read models of the eventstoredb shape (docker-compose.yml): its own database, so both shapes
-- can share this server without projecting two different logs into one set of tables.
CREATE DATABASE kosh_eventstoredb OWNER kosh;
