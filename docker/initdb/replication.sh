#!/bin/sh
# Run once by the postgres image when it creates the primary's data directory: lets the read replica
# (db-replica in compose.yaml) connect for streaming replication, with a password like every other client.
echo "host replication all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
