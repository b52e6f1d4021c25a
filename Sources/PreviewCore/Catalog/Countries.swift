/// Countries whose Last.fm chart the catalog tree lists
/// (`Charts/By Country`), by the English name Last.fm's `geo` methods take
/// (ISO 3166-1 short names): the larger music markets, in alphabetical
/// order. `catalogchart` takes any name Last.fm knows.
public enum Countries {
    public static let names = [
        "Argentina", "Australia", "Austria", "Belgium", "Brazil", "Bulgaria", "Canada", "Chile", "Colombia",
        "Croatia", "Czech Republic", "Denmark", "Egypt", "Finland", "France", "Germany", "Greece", "Hungary",
        "India", "Indonesia", "Ireland", "Israel", "Italy", "Japan", "Mexico", "Morocco", "Netherlands",
        "New Zealand", "Nigeria", "Norway", "Peru", "Philippines", "Poland", "Portugal", "Romania", "Serbia",
        "Singapore", "Slovakia", "South Africa", "Spain", "Sweden", "Switzerland", "Thailand", "Turkey",
        "Ukraine", "United Kingdom", "United States",
    ]
}
