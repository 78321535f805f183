import SwitchyardCore

extension PostgresStore: IdempotencyRepository {}
