"""asking"""
