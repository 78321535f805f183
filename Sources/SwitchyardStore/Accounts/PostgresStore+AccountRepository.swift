import SwitchyardCore

extension PostgresStore: AccountRepository {}
