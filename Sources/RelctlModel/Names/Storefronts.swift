/// Storefronts: where an app sells, as the stores name countries (ISO 3166-1
/// alpha-2, lower case, as the iTunes lookup's `country` takes them).
extension Names {
    /// Every ISO 3166-1 alpha-2 code: a typo ("uk" for gb) is refused with a suggestion, not asked of the store.
    static let countries: Set<String> = Set("""
        ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bl bm bn bo bq br bs bt bv bw by bz \
        ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg eh er es et fi fj fk fm fo fr \
        ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo jp \
        ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mf mg mh mk ml mm mn mo mp mq mr ms mt \
        mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro rs ru rw \
        sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st sv sx sy sz tc td tf tg th tj tk tl tm tn to tr tt tv tw tz ua ug \
        um us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw
        """.split(separator: " ").map(String.init))

    public static var countryCount: Int { countries.count }

    /// One storefront, lower-cased; refused unless it is a country code.
    public static func storefront(_ s: String) throws -> String {
        let code = s.lowercased()
        guard countries.contains(code) else {
            let hint = code == "uk" ? "the United Kingdom's code is gb" : "use a two-letter ISO 3166 country code, like us, de or tr"
            throw InputError("'\(s)' is not a country code", hint: hint)
        }
        return code
    }

    /// A comma-separated list ("us,de,tr"): each checked, sorted, without repeats; "" is none.
    public static func storefronts(_ list: String) throws -> [String] {
        let parts = list.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
        if parts == [""] { return [] }
        return Array(Set(try parts.map { part -> String in
            guard !part.isEmpty else { throw InputError("an empty storefront in '\(list)'", hint: "separate country codes with single commas, like us,de,tr") }
            return try storefront(part)
        })).sorted()
    }
}
