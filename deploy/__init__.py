"""Deployment adapters: the Kafka broker, PostgreSQL and the topic layout (``deploy.topics``)."""
