import SwitchyardCore

extension PostgresStore: WebhookEndpointRepository {}
