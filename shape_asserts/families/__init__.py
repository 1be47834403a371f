"""Shape families: how each shape is asked for, drawn ideally and scored, composing the geometry.

``base`` is the contract (:class:`~shape_asserts.families.base.Family`, what a family reads from
a case, thresholds and their overrides, parameter helpers); ``single`` what the single-contour
families share; ``prompts`` the seed's prompt texts. Each family module (``circle``, ``ellipse``,
``spiral``) or package (``polygon``, ``multi``, ``scene``) exports ``FAMILIES``, which
``shape_asserts.families.registry`` collects.
"""
